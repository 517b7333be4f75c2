// chatctl-sandbox: everything lives in SandboxCLI (the command line) and the modules SandboxServer puts together.
import SandboxCLI
#if canImport(Glibc)
import Glibc
#endif

exit(ChatctlSandbox.main(arguments: Array(CommandLine.arguments.dropFirst())))
