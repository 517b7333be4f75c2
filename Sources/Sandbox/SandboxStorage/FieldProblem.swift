/// What is wrong with a value or a parameter: the field (or parameter) and why (a 422 over REST).
package struct FieldProblem: Error, Equatable {
    package var field: String
    package var message: String

    package init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}
