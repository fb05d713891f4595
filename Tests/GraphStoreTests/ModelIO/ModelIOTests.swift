import Testing

/// Groups the model-input suites, so `swift test --filter ModelIO` runs all of them.
@Suite enum ModelIOTests {}
