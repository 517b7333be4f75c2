import ClientConfiguration
import Diagnostics
import Testing

@Suite struct ProfileTests {
    let environment = ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg"]

    @Test(arguments: ["work", "ops-bot", "a.b_c-1", "9lives"])
    func goodNames(name: String) throws {
        #expect(try Profile(name: name).name == name)
    }

    @Test(arguments: ["", "../x", "a/b", ".hidden", "-dash", "sp ace", "ünï", String(repeating: "a", count: 65)])
    func badNamesAreRefusedBeforeAnyPathIsMade(name: String) {
        #expect(throws: Failure.self) { try Profile(name: name) }
    }

    @Test func aProfileHasItsOwnConfigAndState() throws {
        let work = try Profile(name: "work")
        #expect(work.configPath(environment: environment) == "/cfg/chatctl/profiles/work.json")
        #expect(work.configPath(environment: ["HOME": "/home/u"]) == "/home/u/.config/chatctl/profiles/work.json")
        #expect(work.stateDirectory(in: "/state/chatctl") == "/state/chatctl/profiles/work")
    }

    @Test func theFlagWinsOverTheEnvironment() throws {
        let env = ["CHATCTL_PROFILE": "home"]
        #expect(try Profile.selected(explicit: "work", environment: env)?.name == "work")
        #expect(try Profile.selected(explicit: nil, environment: env)?.name == "home")
        #expect(try Profile.selected(explicit: nil, environment: ["CHATCTL_PROFILE": ""]) == nil)
    }

    /// --config, then the profile's file, then CHATCTL_CONFIG, then config.json.
    @Test func whichConfigFileIsRead() throws {
        let work = try Profile(name: "work")
        let env = environment.merging(["CHATCTL_CONFIG": "/env.json"]) { $1 }
        #expect(ClientConfig.resolvePath(explicit: "/x.json", profile: work, environment: env) == "/x.json")
        #expect(ClientConfig.resolvePath(explicit: nil, profile: work, environment: env) == "/cfg/chatctl/profiles/work.json")
        #expect(ClientConfig.resolvePath(explicit: nil, profile: nil, environment: env) == "/env.json")
        #expect(ClientConfig.resolvePath(explicit: nil, profile: nil, environment: environment) == "/cfg/chatctl/config.json")
    }
}
