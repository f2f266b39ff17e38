import Synchronization

/// Decides which new connections are kept: at most `perAddress` per client address (except the
/// uncapped ones), at most `limit` in all, and the last `reserve` of those only for addresses
/// that hold few connections. Shared by every event loop; touched once when a connection opens
/// and once when it closes, never per request.
final class ConnectionAdmission: Sendable {
    private struct State {
        var open: [PeerAddress: Int] = [:]
        var total = 0
    }

    private let state = Mutex(State())
    private let limit: Int
    private let reserve: Int
    private let perAddress: Int
    private let uncapped: Set<PeerAddress>

    /// - Parameters:
    ///   - limit: connections open at once, in all.
    ///   - perAddress: connections per client address (IPv6 by /64); 0 for no cap.
    ///   - uncapped: peers without a per-address cap (trusted proxies).
    init(limit: Int, perAddress: Int, uncapped: Set<PeerAddress>) {
        self.limit = max(1, limit)
        reserve = max(1, limit / 16)
        self.perAddress = perAddress
        self.uncapped = uncapped
    }

    /// Counts a new connection from `peer` and says whether to keep it.
    func admit(_ peer: PeerAddress) -> Bool {
        let isUncapped = !uncapped.isEmpty && uncapped.contains(peer)
        let key = isUncapped ? peer : peer.capKey
        return state.withLock { state in
            let held = state.open[key, default: 0]
            if !isUncapped {
                if perAddress > 0, held >= perAddress { return false }
                if state.total >= limit - reserve, held >= HTTPServerConfiguration.reserveThreshold { return false }
            }
            guard state.total < limit else { return false }
            state.open[key] = held + 1
            state.total += 1
            return true
        }
    }

    /// Forgets a connection that `admit` kept.
    func release(_ peer: PeerAddress) {
        let key = !uncapped.isEmpty && uncapped.contains(peer) ? peer : peer.capKey
        state.withLock { state in
            state.total -= 1
            if let held = state.open[key], held > 1 {
                state.open[key] = held - 1
            } else {
                state.open[key] = nil
            }
        }
    }

    /// Connections open now, in all.
    var openConnections: Int { state.withLock { $0.total } }
}
