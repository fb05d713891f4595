// GraphStore: Core Data's object graph for Swift on Linux, on SQLite stores in Core Data's layout.
