# Shared by scripts/api-check and scripts/docs: the library products and how
# to list their public symbols from the debug build (`scripts/setup` makes it).
# Source it from the repository's root.

folio_modules=(FolioStore FolioChanges FolioResults FolioPostgres FolioTable FolioAdapters FolioTerminal)

# extract_symbol_graphs OUTDIR: one folder of symbol graphs per module under
# OUTDIR, public symbols only. Exits 2 when there is no debug build.
extract_symbol_graphs() {
    local out=$1 build module
    build=$(swift build --show-bin-path)
    if [ ! -d "$build/Modules" ]; then
        echo "$(basename "$0"): no debug build at $build (run scripts/setup first)" >&2
        exit 2
    fi
    local target pq=() flag
    target="$(uname -m)-unknown-linux-gnu"
    # CLibPQ's header is where pkg-config says (Debian: /usr/include/postgresql).
    for flag in $(pkg-config --cflags-only-I libpq 2>/dev/null); do pq+=(-Xcc "$flag"); done
    for module in "${folio_modules[@]}"; do
        mkdir -p "$out/$module"
        swift-symbolgraph-extract -module-name "$module" -target "$target" \
            -I "$build/Modules" -I Sources/CSQLite -I Sources/CLibPQ ${pq[@]+"${pq[@]}"} \
            -minimum-access-level public -skip-inherited-docs \
            -output-dir "$out/$module" >"$out/$module.log" 2>&1 || { cat "$out/$module.log" >&2; exit 2; }
    done
}
