import Testing

/// Groups the migration suites, so `swift test --filter MigrationTests` runs all of them.
@Suite enum MigrationTests {}
