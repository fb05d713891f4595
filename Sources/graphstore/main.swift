import Foundation
import GraphStoreShell

// Everything but the process exit lives in GraphStoreShell's Launcher, where it is tested.
let status = Launcher.run(arguments: Array(CommandLine.arguments.dropFirst()))
if status == ExitStatus.closedPipe { Launcher.endByClosedPipe() }
exit(status)
