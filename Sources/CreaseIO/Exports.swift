// The replay path's lower layers are part of the `CreaseIO` product: an app or tool that
// writes `import CreaseIO` reads and writes bytes, JSON documents and configuration files as it
// did in 2.0.0.
@_exported import CreaseConfiguration
@_exported import CreaseJSON
@_exported import CreaseSystem
