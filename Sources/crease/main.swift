import CreaseCLI

#if canImport(Glibc)
  import Glibc
#endif

let status = CreaseCommand.run(Array(CommandLine.arguments.dropFirst()), streams: .process())
exit(status.rawValue)
