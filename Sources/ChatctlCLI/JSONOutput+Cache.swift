import MessageCache

extension JSONOutput {
    /// A JSON array of objects that are already JSON text (the raw QuickBlox
    /// objects kept in the cache), on one line.
    static func array(ofRaw objects: [String]) -> String {
        "[" + objects.joined(separator: ",") + "]\n"
    }
}
