// CONTRACT STUB — flag parsing and start-up go here.
import SandboxServer
