// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Folio",
    products: [
        .library(name: "FolioStore", targets: ["FolioStore"]),
        .library(name: "FolioChanges", targets: ["FolioChanges"]),
        .library(name: "FolioResults", targets: ["FolioResults"]),
        .library(name: "FolioPostgres", targets: ["FolioPostgres"]),
        .library(name: "FolioTable", targets: ["FolioTable"]),
        .library(name: "FolioAdapters", targets: ["FolioAdapters"]),
        .library(name: "FolioTerminal", targets: ["FolioTerminal"]),
        .executable(name: "folio", targets: ["folio"]),
        .executable(name: "folio-bench", targets: ["folio-bench"]),
    ],
    targets: [
        // SQLite from Debian's libsqlite3-dev.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        // libpq from Debian's libpq-dev, for the PostgreSQL backend only.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),

        // The layers (docs/architecture.md). Results and tables share only the
        // vocabulary of FolioChanges, so the table and terminal layers link no SQLite;
        // FolioAdapters joins the two sides.
        // The package's one lock.
        .target(name: "FolioLocking"),

        .target(name: "FolioStore", dependencies: ["CSQLite", "FolioLocking"]),
        .target(name: "FolioChanges"),
        // The PostgreSQL backend: its own target, so SQLite-only users link no libpq.
        .target(name: "FolioPostgres", dependencies: ["FolioStore", "FolioLocking", "CLibPQ"]),
        .target(name: "FolioResults", dependencies: ["FolioStore", "FolioChanges"]),
        .target(name: "FolioTable", dependencies: ["FolioChanges"]),
        .target(name: "FolioAdapters", dependencies: ["FolioStore", "FolioResults", "FolioTable", "FolioTerminal"]),
        .target(name: "FolioTerminal", dependencies: ["FolioTable"]),

        // The apps and what they share.
        .target(
            name: "FolioAppSupport",
            dependencies: ["FolioStore", "FolioPostgres", "FolioResults", "FolioTable", "FolioAdapters", "FolioTerminal"]),
        .target(name: "PlanetsApp", dependencies: ["FolioAppSupport"]),
        .target(name: "ZootasticApp", dependencies: ["FolioAppSupport"]),
        .target(name: "MyLocationsApp", dependencies: ["FolioAppSupport"]),
        .target(name: "BuildGuideApp", dependencies: ["FolioAppSupport"]),
        .executableTarget(
            name: "folio",
            dependencies: ["FolioAppSupport", "FolioAdapters", "PlanetsApp", "ZootasticApp", "MyLocationsApp", "BuildGuideApp"]
        ),

        // Benchmarks: release-built, compared against a baseline in the same run.
        .executableTarget(
            name: "folio-bench",
            dependencies: [
                "CSQLite", "CLibPQ", "FolioStore", "FolioPostgres", "FolioResults", "FolioTable", "FolioTerminal", "FolioAppSupport",
                "PlanetsApp", "FolioProcessSupport",
            ]
        ),

        // A tiny program the terminal tests run on a real pty (and a demo of the kit).
        .executableTarget(name: "folio-terminal-probe", dependencies: ["FolioTerminal"]),

        // A child process for the store's crash and two-process tests.
        .executableTarget(name: "folio-store-worker", dependencies: ["FolioStore", "FolioPostgres", "FolioResults", "FolioTestSupport"]),

        // Test support, per layer: the table and terminal tests link no SQLite or libpq.
        .target(name: "FolioTableTestSupport", dependencies: ["FolioTable", "FolioTerminal", "FolioProcessSupport"]),
        // Other processes, waited on off the main actor: a throwaway PostgreSQL
        // cluster (run as programs, no libpq) for the tests and the benchmarks.
        .target(name: "FolioProcessSupport", dependencies: ["FolioLocking"]),
        .target(
            name: "FolioTestSupport",
            dependencies: [
                "CSQLite", "FolioStore", "FolioPostgres", "FolioResults", "FolioTable", "FolioTerminal",
                "FolioTableTestSupport", "FolioProcessSupport",
            ]
        ),

        .testTarget(name: "FolioStoreTests", dependencies: ["FolioStore", "FolioTestSupport", "CSQLite", "folio-store-worker"]),
        .testTarget(
            name: "FolioPostgresTests",
            dependencies: ["FolioPostgres", "FolioStore", "FolioResults", "FolioTestSupport", "CLibPQ", "folio-store-worker"]
        ),
        .testTarget(name: "FolioChangesTests", dependencies: ["FolioChanges", "FolioTableTestSupport"]),
        .testTarget(name: "FolioResultsTests", dependencies: ["FolioResults", "FolioTestSupport"]),
        .testTarget(name: "FolioTableTests", dependencies: ["FolioTable", "FolioTableTestSupport"]),
        .testTarget(name: "FolioAdaptersTests", dependencies: ["FolioAdapters", "FolioTestSupport"]),
        .testTarget(
            name: "FolioTerminalTests", dependencies: ["FolioTerminal", "FolioTableTestSupport", "folio-terminal-probe"],
            exclude: ["Snapshots"]),
        // The tutorials' screens ported as a Core Data and UIKit developer would write them.
        .testTarget(
            name: "FolioPortsTests", dependencies: ["FolioStore", "FolioResults", "FolioTable", "FolioTerminal", "FolioTestSupport"],
            exclude: ["PORTS.md"]),
        // The README's tour as a newcomer writes it: public products only, and no
        // package access, so it compiles against the public API alone.
        .testTarget(
            name: "FolioReadmeTests", dependencies: ["FolioStore", "FolioResults", "FolioTable", "FolioTerminal"],
            packageAccess: false),
        .testTarget(
            name: "FolioAppsTests",
            dependencies: [
                "FolioAppSupport", "PlanetsApp", "ZootasticApp", "MyLocationsApp", "BuildGuideApp", "FolioTestSupport", "CSQLite",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
