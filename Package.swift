// swift-tools-version:6.0
// chatctl: a command-line QuickBlox chat client, and chatctl-sandbox, a local
// QuickBlox-compatible backend. Sources/ is grouped by layer, and a module imports
// nothing from a layer above its own (ModuleGraphTests holds it to that):
//   Sources/Shims   one module per C library
//   Sources/Shared  what both programs use: CommandLineKit, SQLiteStore, Threads
//   Sources/Client  chatctl, bottom to top: ChatIdentifiers, HTTPTransport, XMPPTransport -> QuickBloxAPI,
//                   MessageCache -> ClientConfiguration -> AuthFlow, Transfers -> Messaging
//                   -> ChatView (pure), Presentation, TerminalImages -> ChatctlCLI -> chatctl
//   Sources/Sandbox chatctl-sandbox, bottom to top: SandboxLogging, SandboxClock,
//                   SandboxCrypto, SandboxJSON, SandboxXML, SandboxHTTP -> SandboxStorage,
//                   SandboxNetwork, SandboxWebSocket, SandboxBlobEndpoint -> SandboxREST,
//                   SandboxXMPP -> SandboxServer -> SandboxCLI -> ChatctlSandboxMain
//   Sources/Tools   make bench only
// The client and the sandbox share no protocol code, only Shims and Shared: each checks
// the other.
import PackageDescription

// Concrete generic types' metadata through accessor calls, not mangled names that
// the runtime demangles on first use: each distinct type (Set<String>,
// [String: JSONValue], …) cost tens of microseconds at start-up. Each
// function in a section of its own: unused ones are dropped at link time, and
// chatctl's start-up code can be laid out together (its startup.order).
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-Xfrontend", "-function-sections"]),
]

// chafa's headers include GLib's, which pkg-config finds in these folders; a C
// target cannot name a pkg-config package, and a system library one would also
// link libchafa into every run, which CChafa exists to avoid (it loads it with dlopen).
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let chafaHeaders: [CSetting] = [.unsafeFlags([
    "-I/usr/include/chafa", "-I/usr/lib/\(multiarch)/chafa/include",
    "-I/usr/include/glib-2.0", "-I/usr/lib/\(multiarch)/glib-2.0/include",
])]

let package = Package(
    name: "chatctl",
    products: [
        .executable(name: "chatctl", targets: ["chatctl"]),
        .executable(name: "chatctl-sandbox", targets: ["ChatctlSandboxMain"]),
    ],
    targets: [
        // MARK: C modules
        // Loading a library on first use (dlopen), shared by the shims below that do.
        .target(name: "CLibraryLoading", path: "Sources/Shims/CLibraryLoading", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
        .target(name: "CCurlShim", dependencies: ["CLibraryLoading"], path: "Sources/Shims/CCurlShim"),
        .target(name: "CMagic", dependencies: ["CLibraryLoading"], path: "Sources/Shims/CMagic"),
        .target(name: "CStbImage", dependencies: ["CLibraryLoading"], path: "Sources/Shims/CStbImage"),
        .target(name: "CChafa", dependencies: ["CLibraryLoading"], path: "Sources/Shims/CChafa", cSettings: chafaHeaders),
        .systemLibrary(name: "CCrypto", path: "Sources/Shims/CCrypto", pkgConfig: "libcrypto"),
        .systemLibrary(name: "CEvent", path: "Sources/Shims/CEvent", pkgConfig: "libevent_openssl"),
        .systemLibrary(name: "CExpat", path: "Sources/Shims/CExpat", pkgConfig: "expat"),
        .systemLibrary(name: "CWebSockets", path: "Sources/Shims/CWebSockets", pkgConfig: "libwebsockets"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/Shims/CMicroHTTPD", pkgConfig: "libmicrohttpd"),
        .target(name: "CNcurses", dependencies: ["CLibraryLoading"], path: "Sources/Shims/CNcurses"),
        // libnotify (desktop notifications, `listen --notify`), loaded only when asked.
        .target(name: "CNotify", dependencies: ["CLibraryLoading"], path: "Sources/Shims/CNotify"),
        // The client's libcrypto (the session signature's HMAC), loaded on first use; the sandbox links CCrypto.
        .target(name: "CCryptoShim", dependencies: ["CLibraryLoading"], path: "Sources/Shims/CCryptoShim"),
        // SQLite linked statically (Debian's libsqlite3.a): nothing to load or resolve at start (csqlite.h says why).
        .target(name: "CSQLite", path: "Sources/Shims/CSQLite", linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libsqlite3.a"]), .linkedLibrary("m")]),
        // The version, commit and Swift version of a release build (build_info.h says how they get in).
        .target(name: "CBuildInfo", path: "Sources/Shims/CBuildInfo"),
        // libstrophe (with its OpenSSL and expat) loaded on first use: only commands that chat need it.
        .target(name: "CStrophe", dependencies: ["CLibraryLoading"], path: "Sources/Shims/CStrophe"),
        // The CAs libstrophe's TLS trusts, parsed once per process: it defines SSL_CTX_set_default_verify_paths
        // in the executable, which must therefore export it (strophetrust.h says why).
        .target(name: "CStropheTrust", path: "Sources/Shims/CStropheTrust", linkerSettings: [
            .linkedLibrary("dl"), .linkedLibrary("pthread"),
            .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=SSL_CTX_set_default_verify_paths"]),
        ]),

        // MARK: client
        // The one user-facing failure (what went wrong, what to do, the exit class) every client module throws.
        .target(name: "Diagnostics", path: "Sources/Client/Diagnostics", swiftSettings: swiftSettings),
        // WorkerThread, the one way a thread is started, and ProcessSignals, the one way a signal is handled, in both programs.
        .target(name: "Threads", path: "Sources/Shared/Threads", swiftSettings: swiftSettings),
        // The client's ids as types of their own (DialogID), so that none is taken for another or for a name.
        .target(name: "ChatIdentifiers", path: "Sources/Client/ChatIdentifiers", swiftSettings: swiftSettings),
        .target(name: "HTTPTransport", dependencies: ["CCurlShim"], path: "Sources/Client/HTTPTransport", swiftSettings: swiftSettings),
        .target(name: "XMPPTransport", dependencies: ["ChatIdentifiers", "Diagnostics", "Threads", "CStrophe", "CStropheTrust"], path: "Sources/Client/XMPPTransport", swiftSettings: swiftSettings),
        .target(name: "SQLiteStore", dependencies: ["CSQLite"], path: "Sources/Shared/SQLiteStore", swiftSettings: swiftSettings),
        .target(name: "MessageCache", dependencies: ["ChatIdentifiers", "Diagnostics", "SQLiteStore"], path: "Sources/Client/MessageCache", swiftSettings: swiftSettings),
        .target(name: "QuickBloxAPI", dependencies: ["ChatIdentifiers", "Diagnostics", "HTTPTransport", "CCryptoShim"], path: "Sources/Client/QuickBloxAPI", swiftSettings: swiftSettings),
        // The config file and what follows from it: endpoints, chat connection, failure hints.
        .target(name: "ClientConfiguration", dependencies: ["Diagnostics", "QuickBloxAPI", "XMPPTransport"], path: "Sources/Client/ClientConfiguration", swiftSettings: swiftSettings),
        .target(name: "AuthFlow", dependencies: ["Diagnostics", "Threads", "ClientConfiguration", "QuickBloxAPI", "XMPPTransport", "HTTPTransport"], path: "Sources/Client/AuthFlow", swiftSettings: swiftSettings),
        // Files on the content API: blob upload and download, content types (libmagic).
        .target(name: "Transfers", dependencies: ["Diagnostics", "QuickBloxAPI", "HTTPTransport", "CMagic"], path: "Sources/Client/Transfers", swiftSettings: swiftSettings),
        // Transfers: a message's files go up through the outbox before the message does.
        .target(name: "Messaging", dependencies: ["ChatIdentifiers", "Diagnostics", "Threads", "ClientConfiguration", "AuthFlow", "QuickBloxAPI", "HTTPTransport", "XMPPTransport", "MessageCache", "Transfers", "CommandLineKit"], path: "Sources/Client/Messaging", swiftSettings: swiftSettings),
        // Image previews: decoded by stb_image, drawn by chafa as symbols, sixels or kitty graphics, in a
        // room of cells (PreviewDrawer); it knows images, not chats (the chat view's edge asks it).
        .target(name: "TerminalImages", dependencies: ["Diagnostics", "CStbImage", "CChafa"], path: "Sources/Client/TerminalImages", swiftSettings: swiftSettings),
        .target(name: "CommandLineKit", path: "Sources/Shared/CommandLineKit", swiftSettings: swiftSettings),
        // The chat view as a value: model, events, one pure update, one pure renderer; no terminal, no network.
        .target(name: "ChatView", dependencies: ["ChatIdentifiers"], path: "Sources/Client/ChatView", swiftSettings: swiftSettings),
        // How data is shown to a person or a script: sanitized terminal text, tables, transcripts,
        // JSON Lines, the chat view's records of cached dialogs and messages.
        .target(name: "Presentation", dependencies: ["ChatIdentifiers", "ChatView", "MessageCache", "Messaging", "QuickBloxAPI", "Diagnostics", "HTTPTransport", "XMPPTransport"], path: "Sources/Client/Presentation", swiftSettings: swiftSettings),
        .target(name: "ChatctlCLI", dependencies: ["ChatIdentifiers", "Diagnostics", "Threads", "Presentation", "CommandLineKit", "ClientConfiguration", "AuthFlow", "Messaging", "MessageCache", "QuickBloxAPI", "XMPPTransport", "HTTPTransport", "Transfers", "ChatView", "CNcurses", "TerminalImages", "CNotify", "CBuildInfo"], path: "Sources/Client/ChatctlCLI", swiftSettings: swiftSettings),
        // Linked by lld with packed relative relocations (DT_RELR, glibc 2.36+): the loader
        // reads a few KB instead of ~1 MB of .rela.dyn entries at every start; nothing is
        // exported (no plugin loads chatctl's symbols); the code that --version, help and
        // the offline queries run laid out together (startup.order, from
        // scripts/startup-order.sh), so they touch fewer pages; the C++ runtime linked in
        // statically like the Swift runtime it serves (link/libstdc++.so says how and why).
        // Start-up time: README's speed figures.
        .executableTarget(name: "chatctl", dependencies: ["ChatctlCLI", "Threads"], path: "Sources/Client/chatctl", exclude: ["startup.order", "link"], swiftSettings: swiftSettings,
                          linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                                         "-L", "\(Context.packageDirectory)/Sources/Client/chatctl/link",
                                                         "-Xlinker", "--no-export-dynamic",
                                                         "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/Client/chatctl/startup.order",
                                                         "-Xlinker", "--no-warn-symbol-ordering"])]),
        // Dev-only: fills a large cache for `make bench` (and its test).
        .target(name: "BenchmarkData", dependencies: ["ChatIdentifiers", "MessageCache"], path: "Sources/Tools/BenchmarkData", swiftSettings: swiftSettings),
        .executableTarget(name: "BenchFixture", dependencies: ["BenchmarkData", "MessageCache"], path: "Sources/Tools/BenchFixture", swiftSettings: swiftSettings),
        // Dev-only: the sandbox's load driver for `make bench` (its router rate, many users at once):
        // chatctl's wire steps over libevent and OpenSSL (the sandbox's own SandboxNetwork: the
        // libevent layer, no protocol code), its users made over REST (QuickBloxAPI), its messages'
        // ObjectIds made by chatctl's own generator (XMPPTransport).
        .target(name: "LoadDriver", dependencies: ["SandboxNetwork", "QuickBloxAPI", "HTTPTransport", "XMPPTransport"], path: "Sources/Tools/LoadDriver", swiftSettings: swiftSettings),
        .executableTarget(name: "BenchLoad", dependencies: ["LoadDriver", "CommandLineKit"], path: "Sources/Tools/BenchLoad", swiftSettings: swiftSettings),

        // MARK: sandbox
        // Split as Prosody and ejabberd are, so each part can be read and tested alone: leaves first (log, clock, crypto, JSON,
        // XML, HTTP values and CORS), then storage, REST, the libevent layer, WebSocket, the storage
        // endpoint, XMPP, and the composition root. Each C library behind one module.
        .target(name: "SandboxLogging", path: "Sources/Sandbox/SandboxLogging", swiftSettings: swiftSettings),
        .target(name: "SandboxClock", path: "Sources/Sandbox/SandboxClock", swiftSettings: swiftSettings),
        .target(name: "SandboxCrypto", dependencies: ["CCrypto"], path: "Sources/Sandbox/SandboxCrypto", swiftSettings: swiftSettings),
        .target(name: "SandboxJSON", path: "Sources/Sandbox/SandboxJSON", swiftSettings: swiftSettings),
        .target(name: "SandboxXML", dependencies: ["CExpat"], path: "Sources/Sandbox/SandboxXML", swiftSettings: swiftSettings),
        .target(name: "SandboxHTTP", path: "Sources/Sandbox/SandboxHTTP", swiftSettings: swiftSettings),
        .target(name: "SandboxStorage", dependencies: ["SQLiteStore", "SandboxClock", "SandboxCrypto", "SandboxJSON", "SandboxLogging"], path: "Sources/Sandbox/SandboxStorage", swiftSettings: swiftSettings),
        .target(name: "SandboxREST", dependencies: ["SandboxClock", "SandboxCrypto", "SandboxHTTP", "SandboxJSON", "SandboxLogging", "SandboxStorage"], path: "Sources/Sandbox/SandboxREST", swiftSettings: swiftSettings),
        // libevent and OpenSSL: the loop, its events, listeners, connections and TLS, and the evhttp server.
        .target(name: "SandboxNetwork", dependencies: ["CEvent", "SandboxClock", "SandboxHTTP", "SandboxLogging", "Threads"], path: "Sources/Sandbox/SandboxNetwork", swiftSettings: swiftSettings),
        .target(name: "SandboxWebSocket", dependencies: ["CWebSockets", "SandboxClock", "SandboxHTTP", "SandboxLogging", "SandboxXML", "Threads"], path: "Sources/Sandbox/SandboxWebSocket", swiftSettings: swiftSettings),
        .target(name: "SandboxBlobEndpoint", dependencies: ["CMicroHTTPD", "SandboxClock", "SandboxCrypto", "SandboxHTTP", "SandboxJSON", "SandboxLogging", "SandboxXML"], path: "Sources/Sandbox/SandboxBlobEndpoint", swiftSettings: swiftSettings),
        .target(name: "SandboxXMPP", dependencies: ["SandboxClock", "SandboxCrypto", "SandboxHTTP", "SandboxLogging", "SandboxNetwork", "SandboxStorage", "SandboxWebSocket", "SandboxXML"], path: "Sources/Sandbox/SandboxXMPP", swiftSettings: swiftSettings),
        .target(name: "SandboxServer", dependencies: ["SandboxBlobEndpoint", "SandboxHTTP", "SandboxJSON", "SandboxLogging", "SandboxNetwork", "SandboxREST", "SandboxStorage", "SandboxXMPP", "Threads"], path: "Sources/Sandbox/SandboxServer", swiftSettings: swiftSettings),
        .target(name: "SandboxCLI", dependencies: ["CommandLineKit", "SandboxHTTP", "SandboxServer", "CBuildInfo", "Threads"], path: "Sources/Sandbox/SandboxCLI", swiftSettings: swiftSettings),
        .executableTarget(name: "ChatctlSandboxMain", dependencies: ["SandboxCLI"], path: "Sources/Sandbox/ChatctlSandboxMain", swiftSettings: swiftSettings),

        // MARK: tests
        // One home for what tests share: processes, waits for signals, files, sockets, doubles.
        .target(name: "TestSupport", dependencies: ["CCrypto", "HTTPTransport"], path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "HTTPTransportTests", dependencies: ["HTTPTransport", "CLibraryLoading", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "TransfersTests", dependencies: ["Diagnostics", "Transfers", "QuickBloxAPI", "HTTPTransport", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "QuickBloxAPITests", dependencies: ["Diagnostics", "QuickBloxAPI", "HTTPTransport", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "XMPPTransportTests", dependencies: ["Diagnostics", "XMPPTransport", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MessageCacheTests", dependencies: ["ChatIdentifiers", "MessageCache", "SQLiteStore", "BenchmarkData", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MessagingTests", dependencies: ["ChatIdentifiers", "Diagnostics", "Messaging", "MessageCache", "QuickBloxAPI", "HTTPTransport", "ClientConfiguration", "XMPPTransport", "Transfers", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ClientConfigurationTests", dependencies: ["Diagnostics", "ClientConfiguration", "QuickBloxAPI", "XMPPTransport"], swiftSettings: swiftSettings),
        .testTarget(name: "AuthFlowTests", dependencies: ["Diagnostics", "AuthFlow", "QuickBloxAPI", "HTTPTransport", "XMPPTransport", "TestSupport", "ClientConfiguration"], swiftSettings: swiftSettings),
        .testTarget(name: "ChatViewTests", dependencies: ["ChatView"], swiftSettings: swiftSettings),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"], swiftSettings: swiftSettings),
        .testTarget(name: "ChatIdentifiersTests", dependencies: ["ChatIdentifiers"], swiftSettings: swiftSettings),
        // CStbImageWrite: stb_image_write, to make the test images (tests only).
        .systemLibrary(name: "CStbImageWrite", path: "Tests/CStbImageWrite", pkgConfig: "stb"),
        .testTarget(name: "TerminalImagesTests", dependencies: ["Diagnostics", "TerminalImages", "CStbImageWrite", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "ChatctlCLITests", dependencies: ["ChatIdentifiers", "Diagnostics", "ChatctlCLI", "Presentation", "MessageCache", "Messaging", "HTTPTransport", "TestSupport", "ChatView", "CommandLineKit", "TerminalImages"], swiftSettings: swiftSettings),
        // The sandbox's, one per module. XMPPTransport: the golden XML cross-checks parse the
        // sandbox's output with libstrophe. CEvent: the XMPP tests' raw client speaks TLS with
        // OpenSSL itself, not through the sandbox's own TLS code it is there to check.
        .testTarget(name: "SandboxJSONTests", dependencies: ["SandboxJSON", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxXMLTests", dependencies: ["SandboxXML", "TestSupport", "XMPPTransport"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxHTTPTests", dependencies: ["SandboxHTTP"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxStorageTests", dependencies: ["SandboxStorage", "SandboxClock", "SQLiteStore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxRESTTests", dependencies: ["SandboxREST", "SandboxCrypto", "SandboxHTTP", "SandboxJSON", "SandboxStorage", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxBlobEndpointTests", dependencies: ["SandboxBlobEndpoint", "SandboxClock", "SandboxCrypto", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxNetworkTests", dependencies: ["SandboxNetwork", "SandboxLogging", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxWebSocketTests", dependencies: ["SandboxWebSocket", "SandboxXML"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxXMPPTests", dependencies: ["ChatIdentifiers", "SandboxXMPP", "SandboxHTTP", "SandboxLogging", "SandboxNetwork", "SandboxREST", "SandboxStorage",
                                                           "SandboxWebSocket", "SandboxXML", "SQLiteStore", "CEvent", "TestSupport", "XMPPTransport"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxServerTests", dependencies: ["SandboxServer", "SandboxBlobEndpoint", "SandboxLogging", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "EndToEndTests", dependencies: ["Diagnostics", "TestSupport", "ChatctlCLI", "SandboxCLI", "CommandLineKit", "Transfers", "QuickBloxAPI", "HTTPTransport"], swiftSettings: swiftSettings),
        .testTarget(name: "LoadDriverTests", dependencies: ["LoadDriver", "TestSupport", "XMPPTransport"], swiftSettings: swiftSettings),
        .testTarget(name: "RepositoryTests", swiftSettings: swiftSettings),
        // Resources: the web page the Strophe.js test opens in Chromium (read from the source tree).
        .testTarget(name: "InteropTests", dependencies: ["ChatIdentifiers", "TestSupport", "XMPPTransport"], exclude: ["Resources"], swiftSettings: swiftSettings),
    ]
)

// MARK: fuzz targets (make fuzz)
// libFuzzer executables, declared only when CHATCTL_FUZZ is set (make fuzz sets it
// and builds into .build-fuzz), so the normal build, make test and docs/modules.dot
// never see them. Inside this package they reach the parsers' `package` entry points.
// (Built by these functions, not literal `.target(name: "…"` rows, which
// RepositoryTests reads as the module graph.)
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, path: "Fuzz/Targets/\(name)", swiftSettings: swiftSettings)
}
func fuzzSupport(_ name: String) -> Target {
    .target(name: name, dependencies: ["CFuzzerDriver"], path: "Fuzz/Targets/\(name)", swiftSettings: swiftSettings)
}
if Context.environment["CHATCTL_FUZZ"] != nil {
    package.targets += [
        .systemLibrary(name: "CFuzzerDriver", path: "Fuzz/Targets/CFuzzerDriver"),
        fuzzSupport("FuzzSupport"),
        fuzzTarget("FuzzSandboxJSON", ["SandboxJSON"]),
        fuzzTarget("FuzzSandboxXML", ["SandboxXML"]),
        fuzzTarget("FuzzSandboxREST", ["SandboxREST", "SandboxStorage", "SandboxJSON", "SandboxHTTP"]),
        fuzzTarget("FuzzClientResponses", ["QuickBloxAPI", "HTTPTransport"]),
        fuzzTarget("FuzzClientStanzas", ["XMPPTransport"]),
        fuzzTarget("FuzzArguments", ["CommandLineKit", "ChatctlCLI", "SandboxCLI"]),
    ]
}
