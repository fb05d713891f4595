import Testing
@testable import GraphStore
