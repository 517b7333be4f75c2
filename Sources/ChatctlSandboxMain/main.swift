// chatctl-sandbox: everything lives in SandboxCLI (the command line) and SandboxServer.
import SandboxCLI
#if canImport(Glibc)
import Glibc
#endif

exit(ChatctlSandbox.main(arguments: Array(CommandLine.arguments.dropFirst())))
