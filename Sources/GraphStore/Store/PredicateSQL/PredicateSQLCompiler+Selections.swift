/// Key paths outside the WHERE clause: sort keys and the properties of dictionary results.
/// Both must be one value per row: an attribute, possibly through to-one relationships.
extension PredicateSQLCompiler {
    /// A compiled sort key: the expression to order by.
    struct SortExpression {
        var fragment: SQLFragment
        /// Set when sorting case-insensitively: the options `GS_FOLD` received.
        var folding: ComparisonOptions
        var attributeType: AttributeType
    }

    /// Compiles `keyPath` as an ORDER BY expression (folded when case-insensitive).
    func compileSortKey(_ keyPath: String, caseInsensitive: Bool) throws -> SortExpression {
        let value = try selection(keyPath) { FetchError.invalidSortKey(entity: root.mapping.name, keyPath: keyPath, reason: $0) }
        guard let type = value.attributeType else {
            throw FetchError.invalidSortKey(entity: root.mapping.name, keyPath: keyPath, reason: "it is a relationship, not an attribute")
        }
        guard SQLValueKind.orderable(value.kind, value.kind) || value.kind == .data || value.kind == .uri else {
            throw FetchError.invalidSortKey(entity: root.mapping.name, keyPath: keyPath, reason: "its values have no order")
        }
        guard caseInsensitive, value.kind == .string else { return SortExpression(fragment: value.fragment, folding: [], attributeType: type) }
        let folding: ComparisonOptions = .caseInsensitive
        return SortExpression(
            fragment: .function(.fold, [value.fragment, optionsParameter(folding)]), folding: folding, attributeType: type)
    }

    /// A property of a dictionary result.
    enum PropertySelection {
        /// An attribute's column, decoded with its type.
        case attribute(SQLFragment, AttributeType)
        /// A to-one destination: its key and entity number (from the row's foreign key).
        case object(key: SQLFragment, entity: SQLFragment)
    }

    /// Compiles a property to fetch: an attribute or a to-one relationship, through to-ones.
    func compileProperty(_ keyPath: String) throws -> PropertySelection {
        let invalid = { (reason: String) in FetchError.invalidProperty(entity: self.root.mapping.name, keyPath: keyPath, reason: reason) }
        let components = keyPath.split(separator: ".").map(String.init)
        guard let last = components.last else { throw invalid("the key path is empty") }
        if let owner = try? scopeReached(by: components.dropLast()), let relationship = owner.mapping.relationship(named: last),
            !relationship.relationship.isToMany, case .foreignKey(let column, let entityColumn, _) = relationship.storage, !column.isEmpty
        {
            // The row's own columns name the destination, as an object read from the row
            // holds it: no join (which cost a B-tree search per row). Without sub-entities
            // the destination's entity is the declared one.
            if let entityColumn { return .object(key: .column(owner.alias, column), entity: .column(owner.alias, entityColumn)) }
            let destination = try lookup(relationship.relationship.destination)
            return .object(key: .column(owner.alias, column), entity: .parameter(.integer(Int64(destination.number))))
        }
        let value = try selection(keyPath, invalid)
        guard let type = value.attributeType else { throw invalid("only attributes and to-one relationships can be fetched") }
        return .attribute(value.fragment, type)
    }

    /// Compiles an aggregate of a dictionary fetch: its SQL and the type its value is
    /// decoded as (Integer 64 for counts and sums of integers, Double for averages, the
    /// attribute's own type otherwise).
    func compileAggregate(_ expression: ExpressionDescription) throws -> (SQLFragment, AttributeType) {
        let invalid = { (reason: String) in
            FetchError.invalidProperty(entity: self.root.mapping.name, keyPath: expression.name, reason: reason)
        }
        guard let keyPath = expression.keyPath else {
            guard expression.function == .count else { throw invalid("\(expression.function.rawValue) needs a key path") }
            return (.groupAggregate(.count, nil), .integer64)
        }
        let value = try selection(keyPath, invalid)
        guard let type = value.attributeType else { throw invalid("\(keyPath) is a relationship, not an attribute") }
        let fragment = SQLFragment.groupAggregate(expression.function, value.fragment)
        switch expression.function {
        case .count:
            return (fragment, .integer64)
        case .sum, .average:
            guard type.isNumeric else { throw invalid("\(expression.function.rawValue) needs a number, and \(keyPath) is \(type.xcodeName)") }
            if expression.function == .average { return (fragment, .double) }
            return (fragment, type.isInteger ? .integer64 : type)
        case .min, .max:
            guard SQLValueKind.orderable(value.kind, value.kind) else { throw invalid("the values of \(keyPath) have no order") }
            return (fragment, type)
        }
    }

    /// The scope reached by a chain of to-one relationships from the root.
    private func scopeReached(by components: ArraySlice<String>) throws -> SQLScope {
        var scope = root
        for key in components {
            guard let relationship = scope.mapping.relationship(named: key), !relationship.relationship.isToMany,
                case .foreignKey(let column, _, _) = relationship.storage, !column.isEmpty
            else { throw SQLUnsupported("\(key) is not a stored to-one relationship") }
            scope = try join(scope, relationship, foreignKey: column)
        }
        return scope
    }

    /// A key path that must be one stored value per row.
    private func selection(_ keyPath: String, _ invalid: (String) -> FetchError) throws -> SQLOperand {
        let components = keyPath.split(separator: ".").map(String.init)
        guard !components.isEmpty else { throw invalid("the key path is empty") }
        let resolved: Operand
        do {
            resolved = try resolve(components, from: root)
        } catch let unsupported as SQLUnsupported {
            throw invalid(unsupported.reason)
        }
        guard case .scalar(let value) = resolved else { throw invalid("it is a to-many relationship") }
        return value
    }
}
