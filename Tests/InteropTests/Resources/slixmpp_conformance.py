#!/usr/bin/python3
"""Drives chatctl-sandbox with slixmpp, an XMPP library this project did not write.

Run by Tests/InteropTests/SlixmppConformanceTests.swift with one argument, a JSON object:
host, port, ca, domain, room, room_name, history (the room's last texts, oldest first),
alice (the chatctl user's bare JID), and bob, carol, mallory ({"jid", "password"}).

It prints one line per step on stdout: `ok STEP`, or `fail STEP: reason`; `ready WHAT` when
it waits for the chatctl side (the Swift test then acts); `done` at the end. Every wait has a
timeout, so the script always ends. Where slixmpp and the sandbox disagree, the XEPs decide.
"""
import asyncio
import json
import logging
import sys

import slixmpp
from slixmpp.exceptions import IqError, IqTimeout, PresenceError

WAIT = 20  # seconds for any one thing to happen
ROOM_NS = "http://jabber.org/protocol/muc"

config = json.loads(sys.argv[1])
logging.basicConfig(level=logging.ERROR, stream=sys.stderr)


def say(line):
    print(line, flush=True)


class StepFailed(Exception):
    pass


def check(condition, reason):
    if not condition:
        raise StepFailed(reason)


async def step(name, body):
    """Runs one step; a failure is reported and the script goes on (later steps may fail too)."""
    try:
        await asyncio.wait_for(body(), WAIT * 2)
        say(f"ok {name}")
        return True
    except StepFailed as e:
        say(f"fail {name}: {e}")
    except asyncio.TimeoutError:
        say(f"fail {name}: timed out")
    except (IqError, IqTimeout, PresenceError) as e:
        say(f"fail {name}: {type(e).__name__} {e}")
    except Exception as e:  # noqa: BLE001 - any other surprise is this step's failure, not the script's end
        say(f"fail {name}: {type(e).__name__}: {e}")
    return False


class Client(slixmpp.ClientXMPP):
    """One account's stream, recording what arrives so steps can wait for it."""

    def __init__(self, account):
        super().__init__(account["jid"], account["password"])
        self.ca_certs = config["ca"]
        for plugin in ["xep_0030", "xep_0045", "xep_0198", "xep_0199", "xep_0280", "xep_0333", "xep_0085", "xep_0359"]:
            self.register_plugin(plugin)
        self.arrived = []        # (event name, stanza)
        self.changed = asyncio.Condition()
        self.sm_enabled = None
        for event in ["message", "groupchat_message", "groupchat_presence", "carbon_sent", "marker_received",
                      "marker_displayed", "chatstate_composing", "session_start", "session_resumed", "sm_enabled",
                      "disconnected"]:
            self.add_event_handler(event, self._recorder(event))

    def _recorder(self, event):
        async def record(stanza):
            if event == "sm_enabled":
                self.sm_enabled = stanza
            self.arrived.append((event, stanza))
            async with self.changed:
                self.changed.notify_all()
        return record

    async def wait_for(self, event, where=lambda s: True, what=None):
        """The first `event` (since the start) whose stanza satisfies `where`."""
        async def found():
            async with self.changed:
                while True:
                    for name, stanza in self.arrived:
                        if name == event and where(stanza):
                            return stanza
                    await self.changed.wait()
        try:
            return await asyncio.wait_for(found(), WAIT)
        except asyncio.TimeoutError:
            raise StepFailed(f"no {what or event} within {WAIT} s") from None

    def count(self, event, where):
        return sum(1 for name, stanza in self.arrived if name == event and where(stanza))

    async def start(self):
        self.connect((config["host"], config["port"]), force_starttls=True)
        await self.wait_for("session_start", what="session (STARTTLS, SASL, bind)")


def body_is(text):
    return lambda m: m["body"] == text


async def main():
    domain, room = config["domain"], config["room"]
    bob = Client(config["bob"])
    bob_phone = Client(config["bob"])  # a second resource of bob's
    carol = Client(config["carol"])
    mallory = Client(config["mallory"])

    async def login():
        await bob.start()
        ssl_object = bob.transport.get_extra_info("ssl_object")
        check(ssl_object is not None, "the stream is not encrypted")
        check(ssl_object.getpeercert() is not None, "no verified certificate")
        check(bob.boundjid.bare == config["bob"]["jid"], f"bound {bob.boundjid}")
    if not await step("starttls-login", login):
        say("done")
        return

    async def roster():
        result = await bob.get_roster(timeout=WAIT)
        check(result["type"] == "result", f"roster answered {result['type']}")
    await step("roster", roster)

    async def ping():
        await bob["xep_0199"].ping(jid=domain, timeout=WAIT)
    await step("ping", ping)

    async def disco():
        items = await bob["xep_0030"].get_items(jid=domain, timeout=WAIT)
        services = {item[0] for item in items["disco_items"]["items"]}
        check(f"muc.{domain}" in services, f"the server lists {services}")
        service = await bob["xep_0030"].get_info(jid=f"muc.{domain}", timeout=WAIT)
        identities = {(i[0], i[1]) for i in service["disco_info"]["identities"]}
        check(("conference", "text") in identities, f"the MUC service is {identities}")
        check(ROOM_NS in service["disco_info"]["features"], "the MUC service lacks the MUC feature")
        rooms = await bob["xep_0030"].get_items(jid=f"muc.{domain}", timeout=WAIT)
        check(room in {item[0] for item in rooms["disco_items"]["items"]}, "the service does not list bob's room")
        info = await bob["xep_0030"].get_info(jid=room, timeout=WAIT)
        features = info["disco_info"]["features"]
        for feature in [ROOM_NS, "muc_membersonly", "muc_persistent", "muc_nonanonymous"]:
            check(feature in features, f"the room lacks {feature}: {sorted(features)}")
        names = {i[3] for i in info["disco_info"]["identities"]}
        check(config["room_name"] in names, f"the room is named {names}")
    await step("disco", disco)

    async def stream_management():
        await bob.wait_for("sm_enabled", what="<enabled/>")
        check(bob.sm_enabled["resume"] in (True, "true", "1"), "resumption not offered")
        check(bob["xep_0198"].sm_id, "no resumption id")
    await step("sm-enabled", stream_management)

    async def others():
        await asyncio.gather(bob_phone.start(), carol.start(), mallory.start())
    if not await step("more-logins", others):
        say("done")
        return

    async def carbons():
        await bob["xep_0280"].enable(timeout=WAIT)
        bob_phone.send_message(mto=config["carol"]["jid"], mbody="sent from bob's phone", mtype="chat")
        copy = await bob.wait_for("carbon_sent", lambda m: m["carbon_sent"]["body"] == "sent from bob's phone",
                                  what="sent carbon")
        check(copy["from"].bare == bob.boundjid.bare, f"a carbon from {copy['from']}")
        await carol.wait_for("message", body_is("sent from bob's phone"))
    await step("carbons", carbons)

    async def muc_join():
        presence, subject, occupants, history = await bob["xep_0045"].join_muc_wait(
            room, config["bob"]["jid"].split("-")[0], maxstanzas=2, timeout=WAIT)
        check(110 in presence["muc"]["status_codes"], "no status 110 in our own presence")
        check(subject["subject"] == config["room_name"], f"subject {subject['subject']!r}")
        alice = [p for p in occupants if p["muc"]["jid"].bare == config["alice"]]
        check(alice, f"alice (chatctl listen) is not among {[str(p['from']) for p in occupants]}")
        check(alice[0]["muc"]["role"] == "participant" and alice[0]["muc"]["affiliation"] == "owner",
              f"alice is {alice[0]['muc']['role']}/{alice[0]['muc']['affiliation']}")
        texts = [m["body"] for m in history]
        check(texts == config["history"][-2:], f"history {texts}")
    await step("muc-join", muc_join)

    async def muc_forbidden():
        try:
            await mallory["xep_0045"].join_muc_wait(room, "mallory", maxstanzas=0, timeout=WAIT)
        except PresenceError as e:
            condition = e.presence["error"]["condition"]
            check(condition in ("registration-required", "forbidden"), f"refused with {condition}")
            return
        raise StepFailed("a non-occupant joined")
    await step("muc-forbidden", muc_forbidden)

    sent_to_chatctl = {}

    async def chat_to_chatctl():
        message = bob.make_message(mto=config["alice"], mbody="1:1 from slixmpp", mtype="chat")
        message.enable("markable")
        sent_to_chatctl["id"] = message["id"]
        message.send()
        say(f"info 1to1-id {message['id']}")
    await step("1to1-to-chatctl", chat_to_chatctl)

    async def marker_from_chatctl():
        # chatctl listen tells the sender it has the message; the marker names the id bob gave it.
        marker = await bob.wait_for("marker_received", lambda m: m["received"]["id"] == sent_to_chatctl.get("id"),
                                    what="received marker naming our id")
        check(marker["from"].bare == config["alice"], f"the marker came from {marker['from']}")
    await step("marker-from-chatctl", marker_from_chatctl)

    say("ready chatctl-1to1")

    async def chat_from_chatctl():
        message = await bob.wait_for("message", lambda m: m["type"] == "chat" and m["body"] == "1:1 from chatctl",
                                     what="chatctl's 1:1 message")
        check(message["from"].bare == config["alice"], f"from {message['from']}")
        check(len(message["id"]) == 24 and all(c in "0123456789abcdef" for c in message["id"]), f"id {message['id']}")
    await step("1to1-from-chatctl", chat_from_chatctl)

    async def group_reflection():
        message = bob.make_message(mto=room, mbody="group from slixmpp", mtype="groupchat")
        message.send()
        mine = await bob.wait_for("groupchat_message", body_is("group from slixmpp"), what="our reflection")
        check(mine["id"] == message["id"], f"reflected as {mine['id']}, sent as {message['id']}")
        check(mine["stanza_id"]["id"] and mine["stanza_id"]["by"] == room, "no stanza-id by the room")
    await step("group-reflection", group_reflection)

    say("ready chatctl-group")

    async def group_from_chatctl():
        await bob.wait_for("groupchat_message", body_is("group from chatctl"), what="chatctl's group message")
        # Our own next message comes back after any copy of chatctl's would have.
        bob.send_message(mto=room, mbody="sentinel", mtype="groupchat")
        await bob.wait_for("groupchat_message", body_is("sentinel"))
        copies = bob.count("groupchat_message", body_is("group from chatctl"))
        check(copies == 1, f"{copies} copies")
        check(bob.count("groupchat_message", body_is("group from slixmpp")) == 1, "our own message came back twice")
    await step("group-from-chatctl", group_from_chatctl)

    async def chat_states():
        message = carol.make_message(mto=config["bob"]["jid"], mtype="chat")
        message["chat_state"] = "composing"
        message.send()
        typing = await bob.wait_for("chatstate_composing", lambda m: m["from"].bare == config["carol"]["jid"])
        check(typing["body"] == "", "typing carried a body")
    await step("chatstates", chat_states)

    async def markers():
        message = carol.make_message(mto=config["bob"]["jid"], mbody="mark me", mtype="chat")
        message.enable("markable")
        message.send()
        got = await bob.wait_for("message", body_is("mark me"))
        check(got["id"] != message["id"] and len(got["id"]) == 24, f"bob got it as {got['id']}")
        origin = got["origin_id"]
        origin = origin if isinstance(origin, str) else origin["id"]
        check(origin == message["id"], f"origin-id {origin!r}, carol's id {message['id']}")
        displayed = bob.make_message(mto=got["from"].bare, mtype="chat")
        displayed["displayed"]["id"] = got["id"]
        displayed.send()
        await carol.wait_for("marker_displayed", lambda m: m["displayed"]["id"] == message["id"],
                             what="displayed marker naming carol's id")
    await step("markers", markers)

    async def muc_leave():
        carol_nick = config["carol"]["jid"].split("-")[0]

        def presence_of_carol(available):
            return lambda p: (p["from"].bare == room and p["from"].resource == carol_nick
                              and (p["type"] != "unavailable") == available)
        await carol["xep_0045"].join_muc_wait(room, carol_nick, maxstanzas=0, timeout=WAIT)
        joined = await bob.wait_for("groupchat_presence", presence_of_carol(True), what="carol's join")
        check(joined["muc"]["jid"].bare == config["carol"]["jid"], f"carol's presence names {joined['muc']['jid']}")
        carol["xep_0045"].leave_muc(room, carol_nick)
        await bob.wait_for("groupchat_presence", presence_of_carol(False), what="carol's leaving")
    await step("muc-leave", muc_leave)

    async def resumption():
        bound = str(bob.boundjid)
        before = len(bob.arrived)
        bob.abort()  # the connection drops without closing the stream
        await bob.wait_for("disconnected", lambda s: True)
        carol.send_message(mto=config["bob"]["jid"], mbody="while you were away", mtype="chat")
        # Bob's phone is online: once it has the message, the sandbox has kept a copy for the dropped stream.
        await bob_phone.wait_for("message", body_is("while you were away"))
        bob.connect((config["host"], config["port"]), force_starttls=True)
        await bob.wait_for("session_resumed", what="<resumed/>")
        check(str(bob.boundjid) == bound, f"resumed as {bob.boundjid}, was {bound}")
        await bob.wait_for("message", body_is("while you were away"), what="the message sent while away")
        carol.send_message(mto=config["bob"]["jid"], mbody="after the resumption", mtype="chat")
        await bob.wait_for("message", body_is("after the resumption"))
        copies = bob.count("message", body_is("while you were away"))
        check(copies == 1, f"{copies} copies of the message sent while away")
        check(not any(name == "session_start" for name, _ in bob.arrived[before:]), "a new session, not a resumed one")
    await step("sm-resume", resumption)

    async def resumed_room():
        bob.send_message(mto=room, mbody="back in the room", mtype="groupchat")
        await bob.wait_for("groupchat_message", body_is("back in the room"), what="a reflection in the room")
    await step("resumed-room", resumed_room)

    for client in [bob, bob_phone, carol, mallory]:
        client.disconnect()
    say("done")


asyncio.get_event_loop().run_until_complete(main())
