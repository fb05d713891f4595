import Foundation
import GraphStoreShell

// Everything but the process exit lives in GraphStoreShell's Launcher, where it is tested.
exit(Launcher.run(arguments: Array(CommandLine.arguments.dropFirst())))
