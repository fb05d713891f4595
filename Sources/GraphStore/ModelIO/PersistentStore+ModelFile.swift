import Foundation

extension PersistentStore {
    /// Opens a store with the model read from an Xcode model file.
    ///
    /// `modelPath` may be a `.xcdatamodeld` bundle (read at `version`, or at its current
    /// version), a `.xcdatamodel` folder, or its `contents`/`elements` file. The store's
    /// ``modelOrigin`` is ``ModelOrigin/file(_:)``.
    ///
    /// ```swift
    /// let store = try PersistentStore(path: "App.sqlite", modelPath: "Model.xcdatamodeld")
    /// let older = try PersistentStore(path: "Old.sqlite", modelPath: "Model.xcdatamodeld", version: "Model 2")
    /// ```
    ///
    /// - Throws: ``ModelFileError`` when the model cannot be read (code 134130), then
    ///   ``StoreError`` when the store cannot be opened with it.
    public convenience init(path: String, modelPath: String, version: String? = nil, readOnly: Bool = true) throws {
        let model = try ModelFile.load(path: modelPath, version: version)
        try self.init(path: path, model: model, origin: .file(modelPath), readOnly: readOnly)
    }

    /// Decodes the store's own `Z_MODELCACHE`, whatever model the store was opened with
    /// (useful to compare it with a model file). The entity version hashes are taken from
    /// the store's metadata.
    ///
    /// ```swift
    /// let cached = try store.decodedModelCache().model
    /// ```
    public func decodedModelCache() throws(ModelCacheError) -> ModelCache {
        try ModelCacheReader.read(sampler, schema: schema).withVersionHashes(metadata.versionHashes)
    }
}

extension PersistentStore {
    /// The model inferred from the store's schema alone (what a store with neither a model
    /// file nor a usable `Z_MODELCACHE` opens with), and the notes on what was guessed.
    ///
    /// ```swift
    /// let (model, notes) = try store.inferredModel()
    /// ```
    public func inferredModel() throws(ModelError) -> (ManagedObjectModel, [String]) {
        try SchemaInference(sampler: sampler, schema: schema, records: primaryKeyEntries).infer()
    }
}
