import SandboxStorage
import SandboxXML

extension MessageAttachment {
    /// `<attachment type= id= .../>` in `extraParams` (keys that are no XML name are left out).
    var xml: String {
        "<attachment" + fields.filter { XMLEscaping.isName($0.0) }.map { " \($0.0)='\(XMLEscaping.attribute($0.1))'" }.joined() + "/>"
    }
}
