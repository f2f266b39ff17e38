/// Holds handlers until the test opens it, and lets the test wait until some have arrived.
actor Gate {
    private var isOpen = false
    private var arrivals = 0
    private var held: [CheckedContinuation<Void, Never>] = []
    private var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Called by a handler: counts the arrival, then waits until the gate is open.
    func pass() async {
        arrivals += 1
        let ready = arrivalWaiters.filter { $0.count <= arrivals }
        arrivalWaiters.removeAll { $0.count <= arrivals }
        ready.forEach { $0.continuation.resume() }
        if isOpen { return }
        await withCheckedContinuation { held.append($0) }
    }

    /// Waits until `count` handlers have arrived.
    func waitForArrivals(_ count: Int) async {
        if arrivals >= count { return }
        await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
    }

    /// Lets every held and future handler through.
    func open() {
        isOpen = true
        held.forEach { $0.resume() }
        held = []
    }
}

/// An ordered record of events from several tasks.
actor EventLog {
    private(set) var events: [String] = []

    func record(_ event: String) {
        events.append(event)
    }
}
