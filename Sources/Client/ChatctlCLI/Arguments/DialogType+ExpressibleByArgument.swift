import CommandLineKit
import MessageCache
import Messaging

/// `dialogs --type private|group|public`: the names the dialog list shows.
extension DialogType: ExpressibleByArgument {
    static let named: [DialogType] = [.private, .group, .publicGroup]

    package init?(argument: String) {
        guard let type = Self.named.first(where: { MessagingService.typeName($0) == argument }) else { return nil }
        self = type
    }

    package static var allValueStrings: [String] { named.map(MessagingService.typeName) }
    package static var expectedValue: String? { "one of: " + allValueStrings.joined(separator: ", ") }
}
