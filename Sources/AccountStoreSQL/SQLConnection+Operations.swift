extension SQLConnection {
    /// Runs `SELECT 1`: for ``AccountStore/AccountStore/ping()``.
    public func ping() throws {
        _ = try execute(pingStatement, [])
    }

    /// Rows in every table `catalogQuery` names (one table name a row), by table name: for
    /// ``AccountStore/AccountStore/rowCounts()``. Run it inside a read transaction, so the counts
    /// come from one snapshot.
    public func rowCounts(tablesListedBy catalogQuery: String) throws -> [String: Int] {
        let tables = try rowsOnce(catalogQuery) { $0.text(0) }
        var counts: [String: Int] = [:]
        for table in tables {
            // Names come from the catalog, not from a caller; quoting keeps any spelling intact.
            let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            counts[table] = try rowsOnce("SELECT count(*) FROM \(quoted)") { $0.int(0) }.first ?? 0
        }
        return counts
    }
}

private let pingStatement = SQLStatement("SELECT 1")
