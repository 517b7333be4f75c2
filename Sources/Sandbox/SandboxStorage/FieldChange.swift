// What a create or an update asks of a record's fields (docs/protocol.md §13): values set and
// the documented update operators.
import SandboxJSON

/// One comparison of `pull[field][op]=value`.
package struct PullRule: Equatable {
    package var op: String
    package var value: JSONNode

    package init(op: String, value: JSONNode) {
        self.op = op
        self.value = value
    }
}

/// One change to one field. Values are as the request gave them; applying casts them.
package enum FieldChange: Equatable {
    /// `field=value`; null clears.
    case set(String, JSONNode)
    /// `inc[field]=n`: adds n (negative: subtracts).
    case increment(String, JSONNode)
    /// `push[field][]=v`: appends each value.
    case push(String, [JSONNode])
    /// `pull[field]=v`: removes every item equal to v.
    case pull(String, JSONNode)
    /// `pull[field][op]=v`: removes every item all the comparisons hold for (`lt lte gt gte ne in nin`;
    /// `pull[f][gt]=4&pull[f][lt]=10` removes what lies between).
    case pullWhere(String, [PullRule])
    /// `pull_all[field][]=v`: removes every item equal to one of them.
    case pullAll(String, [JSONNode])
    /// `pop[field]=1` removes the last item, `-1` the first.
    case pop(String, JSONNode)
    /// `add_to_set[field]=a,b`: appends each value not there yet.
    case addToSet(String, [JSONNode])
    /// `field[index]=v`: replaces one item (or appends, at the index just past the end).
    case element(String, index: Int, JSONNode)

    package var field: String {
        switch self {
        case .set(let f, _), .increment(let f, _), .push(let f, _), .pull(let f, _), .pullWhere(let f, _),
             .pullAll(let f, _), .pop(let f, _), .addToSet(let f, _), .element(let f, _, _): f
        }
    }

    /// Operators `pull[field][op]` takes.
    package static let pullOperators: Set<String> = ["lt", "lte", "gt", "gte", "ne", "in", "nin"]
}
