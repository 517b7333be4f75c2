import ChatctlCLI
