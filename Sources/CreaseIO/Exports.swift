// The replay path's two lower layers are part of the `CreaseIO` product: an app or tool that
// writes `import CreaseIO` reads and writes bytes and JSON documents as it did in 2.0.0.
@_exported import CreaseJSON
@_exported import CreaseSystem
