import AccountCore
import AccountStore
import Foundation
import HTTPServer
import Mailer
import Synchronization

/// The `account-server` program: parses the command line and runs the chosen verb.
public enum ServerMain {
    /// Runs and returns the process exit code, once every log line is written (see ``LogSink/drain(patience:)``).
    public static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        let status = await runCommand(arguments: arguments, environment: environment)
        // Every line taken, those of the requests a SIGTERM let finish included, is written
        // before the exit (unless standard error stopped taking them).
        Log.sink.drain()
        return status
    }

    private static func runCommand(arguments: [String], environment: [String: String]) async -> Int32 {
        let command: ServerCommand
        do {
            command = try ServerCommandLine.parse(arguments, environment: environment)
        } catch {
            FileHandle.standardError.write(Data("account-server: \(error)\n".utf8))
            return 2
        }
        do {
            switch command {
            case .help:
                print(ServerCommandLine.helpText)
                return 0
            case .migrate(let configuration):
                let store = try StoreFactory.open(configuration.databaseURL)
                let version = try await store.migrate()
                print("account-server: database at schema version \(version)")
                await store.close()
                return 0
            case .rotateKeys(let configuration):
                let store = try StoreFactory.open(configuration.databaseURL)
                try await store.migrate()
                // The same check a server makes: a sealed database needs its key, and the new seed is sealed.
                let secrets = try await Secrets.load(from: store, seal: SecretSeal.configured(keyFile: configuration.secretKeyFile), random: .system)
                let kid = try await KeyRing.rotate(in: store, seal: secrets.seal, now: Date())
                print("account-server: new signing key \(kid) signs from now on; older keys stay in the JWKS until their tokens expire")
                await store.close()
                return 0
            case .unsealSecrets(let configuration):
                let store = try StoreFactory.open(configuration.databaseURL)
                try await store.migrate()
                let seal = try SecretSeal.configured(keyFile: configuration.secretKeyFile)
                let (settings, keys, mail, unopened) = try await store.write { try seal.unseal(in: $0) }
                print("account-server: \(settings) secrets, \(keys) signing keys and \(mail) waiting messages are in clear again; "
                    + "start the servers without --secret-key-file")
                if unopened > 0 {
                    print("account-server: removed \(unopened) waiting messages that did not open with the key (altered or moved from another row)")
                }
                await store.close()
                return 0
            case .generateSecretKey(let path):
                let key = try SecretKeyFile.generate(at: path)
                print("account-server: wrote a new secret key to \(path) (key \(SecretSeal.fingerprint(of: key))); "
                    + "keep a copy apart from the database and its backups: without it a database sealed with it cannot be opened")
                return 0
            case .admin(let admin, let configuration):
                let store = try StoreFactory.open(configuration.databaseURL)
                try await store.migrate()
                do {
                    let status = try await AdminCommandRunner.run(admin, store: store, configuration: configuration, environment: environment)
                    await store.close()
                    return status
                } catch {
                    await store.close()
                    throw error
                }
            case .serve(let configuration):
                return try await serve(configuration)
            }
        } catch let error as CommandLineError {
            FileHandle.standardError.write(Data("account-server: \(error)\n".utf8))
            return 1
        } catch {
            FileHandle.standardError.write(Data("account-server: \(describe(error))\n".utf8))
            return 1
        }
    }

    private static func serve(_ configuration: ServerConfiguration) async throws -> Int32 {
        let clock = configuration.clockFile.map(ServerClock.offset(byFileAt:)) ?? .system
        let store = try StoreFactory.open(
            configuration.databaseURL, poolSize: configuration.databasePool, inlineReaders: configuration.httpThreads,
            readModel: configuration.readModelCapacity, freshness: configuration.readModelFreshness,
            sessionIdle: TimeInterval(configuration.sessionIdleTTL), clock: clock)
        let transport = try MailConfiguration.transport(for: configuration.mail, sender: configuration.mailFrom)
        let app = try await AccountApp.make(configuration: configuration, store: store, transport: transport, clock: clock)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                host: configuration.host, port: configuration.port, threads: configuration.httpThreads,
                maxConnectionsPerAddress: configuration.maxConnectionsPerAddress,
                uncappedAddresses: configuration.trustedProxies, headerTimeout: configuration.headerTimeout),
            refused: { app.refused($0, $1) },
            responder: { app.respond(to: $0) })
        // Signals are caught from before the first request can be answered: a SIGTERM sent right
        // after a reply must not land between ignoring the signal and watching for it.
        let termination = watchForTermination()
        try server.start()
        // Start-up warnings are out before the line that says the server is ready.
        Log.sink.drain()
        let shown = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        print("account-server listening on http://\(shown):\(server.port)")
        fflush(nil)

        await termination()
        print("account-server: stopping")
        await server.shutdown()
        await app.shutdown()
        await store.close()
        fflush(nil)
        return 0
    }

    /// Starts catching SIGTERM and SIGINT; the returned function suspends until one came.
    ///
    /// A handler installed here writes to a pipe that a thread reads. Not a dispatch signal
    /// source: one is armed asynchronously after `resume()`, and a SIGTERM sent in between (say
    /// by a test, right after its first reply) was ignored and the server never stopped.
    private static func watchForTermination() -> @Sendable () async -> Void {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("account-server: cannot create a pipe for signals") }
        TerminationPipe.writeEnd.store(ends[1], ordering: .releasing)
        let handler: @convention(c) (Int32) -> Void = { number in
            var byte = UInt8(truncatingIfNeeded: number)
            // A lock-free load and write(2): both async-signal-safe.
            _ = write(TerminationPipe.writeEnd.load(ordering: .acquiring), &byte, 1)
        }
        signal(SIGTERM, handler)
        signal(SIGINT, handler)
        let readEnd = ends[0]
        return {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    var byte: UInt8 = 0
                    while read(readEnd, &byte, 1) < 0, errno == EINTR {}
                    continuation.resume()
                }.start()
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case StoreError.unavailable(let reason): "database unavailable: \(reason)"
        case StoreError.failure(let reason): "database error: \(reason)"
        case HTTPServerError.cannotListen(let reason): reason
        case let error as MailError: "mail: \(error)"
        default: String(describing: error)
        }
    }
}

/// Where the signal handler of ``ServerMain`` writes; set before the handler is installed.
private enum TerminationPipe {
    static let writeEnd = Atomic<Int32>(-1)
}
