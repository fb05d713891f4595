/// Finds a cycle in an inheritance forest given as "each node's parent" (a model's
/// `parent` names, a store's `Z_SUPER` numbers), and the deepest node, visiting each node
/// once.
///
/// Walking up from every node separately costs the depth for each node (quadratic, and
/// cubic when each walk also searches the path it has taken); here a walk stops at the
/// first node an earlier walk has already cleared, so the whole check is linear in the
/// number of nodes.
///
/// ```swift
/// let parents = [1: 0, 2: 1, 3: 2]
/// InheritanceCycles(nodes: [1, 2, 3]) { parents[$0] }.first   // nil: no cycle
/// InheritanceCycles(nodes: [1, 2]) { $0 == 1 ? 2 : 1 }.first   // [1, 2, 1]
/// ```
package struct InheritanceCycles<Node: Hashable> {
    /// How deep an inheritance tree may be: far beyond any real model (a few levels), and
    /// shallow enough that the per-entity lists of ancestors and descendants a store keeps
    /// (which grow with the square of a chain's length) stay small.
    package static var maximumDepth: Int { 1_024 }

    /// The first cycle found, starting and ending with the same node; nil when there is none.
    package private(set) var first: [Node]?
    /// The node with the longest chain of ancestors, and that chain's length counting the
    /// node itself (a root is at depth 1); nil when there are no nodes or there is a cycle.
    package private(set) var deepest: (node: Node, depth: Int)?
    /// How many times a walk stepped from a node to its parent (at most the node count).
    private(set) var steps = 0

    /// Walks up from each node in `nodes` order; `parent` gives a node's parent, or nil
    /// for a root (a parent that is not itself a node also ends the walk).
    package init(nodes: [Node], parent: (Node) -> Node?) {
        // The depth of each node a walk has cleared (so cleared nodes are its keys).
        var cleared: [Node: Int] = [:]
        cleared.reserveCapacity(nodes.count)
        // Filled by inserting, not `Set(nodes)`: from another module that generic
        // initializer runs unspecialized, and its first use looked up `Sequence`'s
        // associated types at run time (a twentieth of opening a small store).
        var known = Set<Node>(minimumCapacity: nodes.count)
        for node in nodes { known.insert(node) }
        for start in nodes where cleared[start] == nil {
            // The nodes of this walk, in order, and their positions (to cut the cycle out).
            var path: [Node] = []
            var position: [Node: Int] = [:]
            var current: Node? = start
            while let node = current, known.contains(node), cleared[node] == nil {
                if let index = position[node] {
                    first = Array(path[index...]) + [node]
                    return
                }
                position[node] = path.count
                path.append(node)
                steps += 1
                current = parent(node)
            }
            // Depths from the top down: below the cleared node the walk stopped at, or a root.
            var depth = current.flatMap { cleared[$0] } ?? 0
            for node in path.reversed() {
                depth += 1
                cleared[node] = depth
                if depth > deepest?.depth ?? 0 { deepest = (node, depth) }
            }
        }
    }
}

extension InheritanceCycles where Node == String {
    /// Checks a model's entities (by name, the first declaration of a name counting):
    /// no inheritance cycle, and no chain deeper than ``maximumDepth``.
    static func check(_ entities: [EntityDescription]) throws(ModelError) {
        var parents: [String: String?] = [:]
        for entity in entities where parents[entity.name] == nil { parents[entity.name] = .some(entity.parent) }
        let walk = InheritanceCycles(nodes: entities.map(\.name)) { parents[$0] ?? nil }
        if let cycle = walk.first { throw .inheritanceCycle(cycle) }
        if let deepest = walk.deepest, deepest.depth > maximumDepth {
            throw .inheritanceTooDeep(entity: deepest.node, depth: deepest.depth, maximum: maximumDepth)
        }
    }
}
