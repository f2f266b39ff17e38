import AccountStoreSQL

/// The SQLite schema, one SQL script per version, oldest first: version N is `steps[N - 1]`.
///
/// Version 1 is ``SchemaBaseline`` in SQLite's spelling: `BLOB` for bytes, `INTEGER` 0 or 1 for
/// flags, plain `TEXT` keys (SQLite compares text byte by byte). One SQLite file has one writer
/// process, which sees its own writes and others' by `data_version`, so there are no notification
/// triggers. Never edit a step that has shipped; append a new one (and its PostgreSQL twin).
enum Migrations {
    static let steps: [String] = [SchemaBaseline.script(.sqlite)]
}
