import CLibraryLoading
import Glibc
import Testing

/// The load-on-first-use helper every dlopen shim shares (CLibraryLoading): what it
/// says when a library or a symbol is missing, and that it keeps saying it.
@Suite struct LibraryLoadingTests {
    /// A fresh state (all zero is PTHREAD_ONCE_INIT), named for messages.
    static func state(_ name: String) -> library_loading {
        var loading = library_loading()
        loading.name = UnsafePointer(strdup(name))
        return loading
    }

    @Test func aMissingLibraryKeepsItsOwnWordsAfterTheNextFailure() {
        var first = Self.state("libchatctl-nothing"), second = Self.state("libchatctl-neither")
        #expect(library_open(&first, "libchatctl-nothing.so.0") == 0)
        let said = String(cString: library_error(&first))
        #expect(said.contains("libchatctl-nothing.so.0"), "the loader's words name the file: \(said)")
        // dlerror's text lasts only until the next failing dl call (another shim's, say).
        #expect(library_open(&second, "libchatctl-neither.so.0") == 0)
        #expect(String(cString: library_error(&first)) == said)
        #expect(String(cString: library_error(&second)).contains("libchatctl-neither.so.0"))
    }

    @Test func aMissingSymbolIsNamedAndALoadedLibrarySaysNothing() {
        var libc = Self.state("libc")
        #expect(library_open(&libc, "libc.so.6") == 1)
        var address: UnsafeMutableRawPointer?
        #expect(library_symbol(&libc, "strlen", &address) == 1 && address != nil)
        #expect(library_symbol(&libc, "chatctl_no_such_symbol", &address) == 0)
        #expect(String(cString: library_error(&libc)) == "libc lacks chatctl_no_such_symbol")
        var whole = Self.state("libc")
        #expect(library_open(&whole, "libc.so.6") == 1 && library_symbol(&whole, "strlen", &address) == 1)
        library_loaded(&whole)
        #expect(String(cString: library_error(&whole)) == "")
    }
}
