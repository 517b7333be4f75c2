#!/usr/bin/python3
"""The sandbox against QuickBlox's published REST reference (Swagger 2.0, 2018).

Runs every operation of the reference against a running chatctl-sandbox with a valid,
form-encoded request (the reference's `in: formData`), then checks each answer: the
status the reference documents, the body valid against the operation's response schema
(python3-jsonschema, Draft 4 as Swagger 2.0 uses it), and every key the schema documents
present in every object of the answer. The places where the sandbox knowingly answers
otherwise are the table KNOWN below, the same list as docs/protocol.md §11.

Usage: reference_contract.py CONFIG_JSON REFERENCE_JSON
Writes one JSON line per operation ({"operation", "status", "ok", "problems"}) and exits 1
when any operation failed or was not exercised.
"""

import base64
import copy
import hashlib
import hmac
import http.client
import json
import random
import sys
import time
import urllib.parse
import xml.etree.ElementTree as ElementTree

import jsonschema

# Where the sandbox knowingly differs from the reference (docs/protocol.md §11): the hosted
# service's status or envelope, which the SDKs read, where the reference says otherwise.
KNOWN = {
    # The hosted service wraps the session and the logged-in user, as the JavaScript SDK reads them.
    "Create_Session_Id": {"envelope": "session"},
    "102_Sign_In_Id": {"envelope": "user", "status": 202},
    # The reference says 201 for reading a blob's metadata; the service answers 200.
    "105_Retrieve_File": {"status": 200},
    # The reference says 200; the policy's success_action_status is 201, so S3 answers 201.
    "102_Upload_File": {"status": 201},
    # A custom object's file is served by the storage endpoint, as a blob's is: 301 to a signed
    # URL there (which answers 200 with the bytes; checked below), not the bytes themselves.
    "112_Download_file": {"status": 301},
    # The hosted service answers an array of {"subscription": …}, one per subscription, which the
    # JavaScript SDK reads (res[0].subscription); each is the reference's SubscriptionsResponse.
    "101_Create_Subscription": {"array": True},
    "102_Retrieve_Subscriptions": {"array": True},
    # The hosted service answers the contacts as a bare array, which the SDK hands on as it is.
    "102_Retrieve_Address_Book_Id": {"bare_items": True},
}
# Schemas whose listed keys are examples, not keys every answer has.
EXAMPLE_KEYS = {"Chat.UnreadMessagesCountResponse": {"53aabe15e4b077ddd43e7fd6", "23aabe15e4b077ddd43e7fd1"},
                # An upload's rejected contacts are keyed by their index in it.
                "AddressBook.AddressBookRejectedObject": {"5", "6", "8"}}
# Page items the service wraps, {"user": {…}}, by the schema of what they wrap.
WRAPPED_ITEMS = (("Users.UserObject", "user"), ("Content.FileObject", "blob"), ("AddressBook.UserObject", "user"),
                 ("PushNotifications.EventObject", "event"))


class Sandbox:
    def __init__(self, config):
        self.config = config
        api = urllib.parse.urlsplit(config["endpoints"]["api"])
        self.host, self.port = api.hostname, api.port

    def call(self, method, path, params=(), token=None, host=None, port=None, body=None, headers=None):
        """One request; params go in the query for GET and DELETE, else in a form body."""
        encoded = urllib.parse.urlencode(list(params))
        target = path
        request_headers = dict(headers or {})
        if token:
            request_headers["QB-Token"] = token
        if body is None:
            if method in ("GET", "DELETE"):
                target += ("?" + encoded) if encoded else ""
                body = b""
            else:
                body = encoded.encode()
                request_headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = http.client.HTTPConnection(host or self.host, port or self.port, timeout=30)
        try:
            connection.request(method, target, body=body, headers=request_headers)
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def signed_session(self, user=None):
        params = [("application_id", str(self.config["appId"])), ("auth_key", self.config["authKey"]),
                  ("nonce", str(random.randint(1, 2_000_000_000))), ("timestamp", str(int(time.time())))]
        if user:
            params += [("user[login]", user[0]), ("user[password]", user[1])]
        text = "&".join(f"{k}={v}" for k, v in sorted(params))
        params.append(("signature", hmac.new(self.config["authSecret"].encode(), text.encode(), hashlib.sha1).hexdigest()))
        return params


class Reference:
    def __init__(self, document):
        self.definitions = document["definitions"]
        self.operations = {op["operationId"]: op for op in document["operations"]}

    def resolve(self, api, schema):
        """The schema with every `#/definitions/X` replaced by the API's `Api.X`, each
        property's type also allowing null (the service keeps null for unset fields), and
        `external_user_id` and an event's `date` and `end_date` an integer too (the service and
        the SDKs' examples)."""
        schema = copy.deepcopy(schema)
        if "$ref" in schema:
            name = f"{api}.{schema['$ref'].split('/')[-1]}"
            resolved = self.resolve(api, self.definitions[name])
            resolved["x-name"] = name
            return resolved
        for key, value in list(schema.get("properties", {}).items()):
            value = self.resolve(api, value)
            if isinstance(value.get("type"), str):
                value["type"] = [value["type"], "null"]
            if key == "external_user_id" or (api == "PushNotifications" and key in ("date", "end_date")):
                value["type"] = ["string", "integer", "null"]
            schema["properties"][key] = value
        if "items" in schema:
            schema["items"] = self.resolve(api, schema["items"])
        return schema


def missing_keys(schema, value, where="$"):
    """Every key `schema` documents that an object of `value` lacks (recursively)."""
    problems = []
    if isinstance(value, dict) and "properties" in schema:
        examples = EXAMPLE_KEYS.get(schema.get("x-name"), set())
        for key, sub in schema["properties"].items():
            if key in examples:
                continue
            if key not in value:
                problems.append(f"{where}.{key} is missing")
            else:
                problems += missing_keys(sub, value[key], f"{where}.{key}")
    elif isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            problems += missing_keys(schema["items"], item, f"{where}[{i}]")
    return problems


class Contract:
    def __init__(self, sandbox, reference):
        self.sandbox = sandbox
        self.reference = reference
        self.results = {}

    def check(self, operation_id, status, body, parsed=None, extra_problems=()):
        """Checks one answer of `operation_id` and records the result."""
        op = self.reference.operations[operation_id]
        known = KNOWN.get(operation_id, {})
        documented_status, documented = next(iter(op["responses"].items()))
        expected_status = known.get("status", int(documented_status))
        problems = list(extra_problems)
        if status != expected_status:
            problems.append(f"status {status}, expected {expected_status}: {body[:300]!r}")
        schema = documented.get("schema")
        if schema is not None:
            schema = self.reference.resolve(op["api"], schema)
        if schema is None or schema.get("type") == "string" and schema.get("default") == "null":
            # No schema, or the reference's EmptyBody: an empty answer.
            if body.strip() not in (b"", b"null"):
                problems.append(f"expected an empty body, got {body[:200]!r}")
        else:
            if parsed is None:
                try:
                    parsed = json.loads(body)
                except ValueError as error:
                    problems.append(f"body is not JSON ({error}): {body[:200]!r}")
            if parsed is not None and known.get("array"):
                if not isinstance(parsed, list) or not parsed:
                    problems.append(f"expected a non-empty array, got {body[:200]!r}")
                else:
                    for item in parsed:
                        problems += self.schema_problems(schema, item)
                parsed = None
            if parsed is not None and known.get("bare_items"):
                if not isinstance(parsed, list):
                    problems.append(f"expected a bare array of items, got {body[:200]!r}")
                parsed = {"items": parsed}
            if parsed is not None:
                envelope = known.get("envelope")
                if envelope:
                    if not isinstance(parsed, dict) or envelope not in parsed:
                        problems.append(f"no '{envelope}' envelope: {body[:200]!r}")
                    else:
                        parsed = parsed[envelope]
                for item_key, wrapper in WRAPPED_ITEMS:
                    # The service wraps each user, blob and event of a page: {"user": {…}}.
                    if isinstance(parsed, dict) and schema.get("properties", {}).get("items", {}).get("items", {}).get("x-name") == item_key:
                        items = parsed.get("items", [])
                        if not all(isinstance(i, dict) and wrapper in i for i in items):
                            problems.append(f"page items are not {{'{wrapper}': …}}")
                        else:
                            parsed = dict(parsed, items=[i[wrapper] for i in items])
                problems += self.schema_problems(schema, parsed)
        self.results[operation_id] = {"operation": operation_id, "method": op["method"], "path": op["path"],
                                      "status": status, "ok": not problems, "problems": problems}

    @staticmethod
    def schema_problems(schema, value):
        """`value` against `schema`, and every key the schema documents present."""
        problems = [f"schema: {'/'.join(map(str, error.path))}: {error.message}"
                    for error in jsonschema.Draft4Validator(schema).iter_errors(value)]
        return problems + missing_keys(schema, value)

    def fail(self, operation_id, problem):
        """Marks a checked operation failed for a reason of its own (a value, not a shape)."""
        self.results[operation_id]["problems"].append(problem)
        self.results[operation_id]["ok"] = False

    def json_of(self, status, body, what):
        if status >= 300:
            raise RuntimeError(f"{what} answered {status}: {body[:300]!r}")
        return json.loads(body) if body.strip() else None


def multipart(fields, file_name, content_type, data):
    boundary = "----reference-contract-" + str(random.randint(1, 10**12))
    out = b""
    for name, value in fields:
        out += f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n".encode()
    out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\n"
            f"Content-Type: {content_type}\r\n\r\n").encode() + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return out, f"multipart/form-data; boundary={boundary}"


def redirect_problems(sandbox, headers, payload):
    """What is wrong with a download's redirect: no Location, or one that does not answer 200 with `payload`."""
    location = headers.get("location")
    if not location:
        return ["no Location"]
    target = urllib.parse.urlsplit(location)
    got = sandbox.call("GET", target.path + ("?" + target.query if target.query else ""), host=target.hostname, port=target.port)
    if got[0] != 200 or got[2] != payload:
        return [f"Location answered {got[0]} with {len(got[2])} bytes, not the file"]
    return []


def run(contract):
    s = contract.sandbox
    c = contract
    suffix = str(random.randint(10000, 99999))
    password = "contract-password-1"

    # Endpoints: the sandbox names its own (docs/protocol.md §1), with no session.
    status, _, body = s.call("GET", "/account_settings.json", headers={"QB-Account-Key": s.config["accountKey"]})
    settings = json.loads(body) if status == 200 else {}
    problems = []
    if settings.get("api_endpoint") != s.config["endpoints"]["api"]:
        problems.append(f"api_endpoint {settings.get('api_endpoint')!r}, not the sandbox's {s.config['endpoints']['api']!r}")
    if settings.get("chat_endpoint") != s.config.get("chatDomain"):
        problems.append(f"chat_endpoint {settings.get('chat_endpoint')!r}, not the chat domain {s.config.get('chatDomain')!r}")
    c.check("Retrieve_Endpoints_Id", status, body, extra_problems=problems)

    # Session
    status, _, body = s.call("POST", "/session.json", s.signed_session())
    c.check("Create_Session_Id", status, body)
    app_token = json.loads(body)["session"]["token"]

    # Users: ann with every documented field; bob, cat, dan, eve and fay plain.
    ann_fields = [("user[login]", "ann" + suffix), ("user[password]", password), ("user[email]", f"ann{suffix}@example.com"),
                  ("user[full_name]", "Ann Contract"), ("user[phone]", "4487556488"), ("user[website]", "https://example.com"),
                  ("user[facebook_id]", "1000" + suffix), ("user[twitter_id]", "2000" + suffix),
                  ("user[twitter_digits_id]", "3000" + suffix), ("user[blob_id]", "12312412"),
                  ("user[external_user_id]", "4" + suffix), ("user[tag_list]", "man,car"), ("user[custom_data]", "age=34&lang=en")]
    status, _, body = s.call("POST", "/users.json", ann_fields, token=app_token)
    c.check("101_Sign_Up_Id", status, body)
    ann = json.loads(body)["user"]
    others = {}
    for name in ("bob", "cat", "dan", "eve", "fay"):
        fields = [("user[login]", name + suffix), ("user[password]", password)]
        if name == "fay":
            fields.append(("user[external_user_id]", "5" + suffix))
        status, _, body = s.call("POST", "/users.json", fields, token=app_token)
        others[name] = c.json_of(status, body, f"sign-up of {name}")["user"]

    status, _, body = s.call("POST", "/login.json", [("login", ann["login"]), ("email", ann["email"]), ("password", password)],
                             token=app_token)
    c.check("102_Sign_In_Id", status, body)
    token = app_token  # now ann's user session
    status, _, body = s.call("GET", "/session.json", token=token)
    c.check("Retrieve_Session_Info_Id", status, body)

    status, _, body = s.call("GET", "/users.json", [("page", "1"), ("per_page", "30"), ("filter[]", f"string login in {ann['login']},{others['bob']['login']}"),
                                                    ("order", "asc string login")], token=token)
    c.check("106_Retrieve_Users_Id", status, body)
    status, _, body = s.call("PUT", f"/users/{ann['id']}.json", [("user[full_name]", "Ann Contracted"), ("user[tag_list]", "man,car,mac")],
                             token=token)
    c.check("105_Update_User_id", status, body)
    status, _, body = s.call("GET", f"/users/{ann['id']}.json", token=token)
    c.check("107_Retrieve_User_By_Id_Id", status, body)
    status, _, body = s.call("GET", "/users/by_login.json", [("login", ann["login"])], token=token)
    c.check("108_Retrieve_User_By_Login_Id", status, body)
    status, _, body = s.call("GET", "/users/by_full_name.json", [("full_name", "Ann Contracted"), ("page", "1"), ("per_page", "30")], token=token)
    c.check("109_Retrieve_User_By_Full_Name_Id", status, body)
    status, _, body = s.call("GET", "/users/by_facebook_id.json", [("facebook_id", "1000" + suffix)], token=token)
    c.check("110_Retrieve_User_By_Facebook_Id", status, body)
    status, _, body = s.call("GET", "/users/by_twitter_id.json", [("twitter_id", "2000" + suffix)], token=token)
    c.check("111_Retrieve_User_By_Twitter_Id", status, body)
    status, _, body = s.call("GET", "/users/by_twitter_digits_id.json", [("twitter_digits_id", "3000" + suffix)], token=token)
    c.check("112_Retrieve_User_By_Twitter_Digits_Id", status, body)
    status, _, body = s.call("GET", "/users/by_email.json", [("email", ann["email"])], token=token)
    c.check("113_Retrieve_User_By_User_Email_Id", status, body)
    status, _, body = s.call("GET", "/users/by_tags.json", [("tags", "man,car"), ("page", "1"), ("per_page", "30")], token=token)
    c.check("114_Retrieve_User_By_Tags_Id", status, body)
    status, _, body = s.call("GET", f"/users/external/{ann['external_user_id']}.json", token=token)
    c.check("115_Retrieve_User_By_External_User_Id", status, body)
    status, _, body = s.call("GET", "/password/reset.json", [("email", ann["email"])], token=token)
    c.check("104_Password_Reset_Id", status, body)

    # Chat
    bob, cat, dan = others["bob"], others["cat"], others["dan"]
    status, _, body = s.call("POST", "/chat/Dialog.json", [("type", "2"), ("occupants_ids", f"{bob['id']},{cat['id']}"),
                                                           ("name", "Chat with Bob, Cat"), ("photo", "67834")], token=token)
    c.check("101_Create_Dialog", status, body)
    dialog = json.loads(body)
    status, _, body = s.call("POST", "/chat/Message.json", [("chat_dialog_id", dialog["_id"]), ("message", "Wish I could be here!"),
                                                            ("attachments[0][type]", "image"), ("attachments[0][id]", "47863"),
                                                            ("attachments[0][url]", "https://example.com/47863.jpg"),
                                                            ("send_to_chat", "1"), ("markable", "1"), ("age", "25"),
                                                            ("date_sent", "1473075233")], token=token)
    c.check("111_Create_Message", status, body)
    message = json.loads(body)
    if message.get("date_sent") != 1473075233:
        c.results["111_Create_Message"]["problems"].append(f"date_sent {message.get('date_sent')!r}, not the client's 1473075233")
        c.results["111_Create_Message"]["ok"] = False
    status, _, body = s.call("GET", "/chat/Dialog.json", [("type[in]", "1,2"), ("limit", "100"), ("skip", "0"),
                                                          ("sort_desc", "last_message_date_sent")], token=token)
    c.check("102_Retrieve_Dialogs", status, body)
    status, _, body = s.call("PUT", f"/chat/Dialog/{dialog['_id']}.json", [("push_all[occupants_ids][]", str(dan["id"])),
                                                                            ("name", "Chat with Bob, Cat, Dan"), ("photo", "67835")],
                             token=token)
    c.check("103_Update_Dialog", status, body)
    status, _, body = s.call("GET", f"/chat/Dialog/{dialog['_id']}/notifications.json", token=token)
    c.check("106_Get_Notifications_Settings", status, body)
    status, _, body = s.call("PUT", f"/chat/Dialog/{dialog['_id']}/notifications.json", [("enabled", "0")], token=token)
    c.check("107_Update_Notifications_Settings", status, body)
    second = c.json_of(*s.call("POST", "/chat/Dialog.json", [("type", "2"), ("occupants_ids", str(bob["id"])), ("name", "second")],
                                token=token)[::2], "second dialog")
    status, _, body = s.call("POST", "/chat/Dialogs/add_occupants.json", [("users_ids", f"{others['eve']['id']},{others['fay']['id']}"),
                                                                          ("dialogs_ids", f"{dialog['_id']},{second['_id']}")], token=token)
    c.check("108_Bulk_Add_Occupants", status, body)
    status, _, body = s.call("POST", "/chat/Dialogs/remove_occupants.json", [("users_ids", str(others["eve"]["id"])),
                                                                             ("dialogs_ids", f"{dialog['_id']},{second['_id']}")], token=token)
    c.check("109_Bulk_Remove_Occupants", status, body)
    status, _, body = s.call("GET", "/chat/Message.json", [("chat_dialog_id", dialog["_id"]), ("sender_id", str(ann["id"])),
                                                           ("limit", "100"), ("skip", "0"), ("sort_desc", "date_sent"),
                                                           ("mark_as_read", "0")], token=token)
    c.check("110_Retrieve_Messages", status, body)
    bob_token = json.loads(s.call("POST", "/session.json", s.signed_session((bob["login"], password)))[2])["session"]["token"]
    status, _, body = s.call("GET", "/chat/Message/unread.json", [("chat_dialog_ids", f"{dialog['_id']},{second['_id']}")], token=bob_token)
    c.check("114_Retrieve_Unread_Messages_Count", status, body)
    if status == 200:
        counts = json.loads(body)
        absent = [d for d in (dialog["_id"], second["_id"]) if d not in counts]
        if absent:
            c.results["114_Retrieve_Unread_Messages_Count"]["problems"].append(f"no count for {absent}")
            c.results["114_Retrieve_Unread_Messages_Count"]["ok"] = False
    status, _, body = s.call("PUT", f"/chat/Message/{message['_id']}.json", [("read", "1"), ("delivered", "1"),
                                                                            ("chat_dialog_id", dialog["_id"])], token=bob_token)
    c.check("112_Update_Message", status, body)
    another = c.json_of(*s.call("POST", "/chat/Message.json", [("chat_dialog_id", dialog["_id"]), ("message", "and another")],
                                 token=token)[::2], "second message")
    status, _, body = s.call("DELETE", f"/chat/Message/{message['_id']},{another['_id']}.json", [("force", "1")], token=token)
    c.check("113_Delete_Messages", status, body)

    # Content
    payload = b"reference contract bytes \x00\x01\x02"
    status, _, body = s.call("POST", "/blobs.json", [("blob[content_type]", "image/jpeg"), ("blob[name]", "museum.jpg"),
                                                     ("blob[public]", "false")], token=token)
    c.check("101_Create_File", status, body)
    blob = json.loads(body)["blob"]
    upload = urllib.parse.urlsplit(blob["blob_object_access"]["params"])
    fields = [(k, v) for k, v in urllib.parse.parse_qsl(upload.query, keep_blank_values=True)]
    form, form_type = multipart(fields, "museum.jpg", "image/jpeg", payload)
    status, headers, body = s.call("POST", upload.path, host=upload.hostname, port=upload.port, body=form,
                                   headers={"Content-Type": form_type})
    posted, problems = None, []
    try:
        root = ElementTree.fromstring(body)
        if root.tag != "PostResponse":
            problems.append(f"root element {root.tag}, not PostResponse")
        posted = {child.tag: child.text or "" for child in root}
        if posted.get("Key") != blob["uid"]:
            problems.append(f"Key {posted.get('Key')!r}, not the blob's uid")
        if posted.get("ETag") != '"' + hashlib.md5(payload).hexdigest() + '"':
            problems.append(f"ETag {posted.get('ETag')!r} is not the file's quoted MD5")
    except ElementTree.ParseError as error:
        problems.append(f"body is not XML ({error}): {body[:200]!r}")
    c.check("102_Upload_File", status, body, parsed=posted if posted is not None else {}, extra_problems=problems)
    status, _, body = s.call("PUT", f"/blobs/{blob['id']}/complete.json", [("blob[size]", str(len(payload)))], token=token)
    c.check("103_Declare_File_Uploaded", status, body)
    status, _, body = s.call("GET", "/blobs.json", [("page", "1"), ("per_page", "30")], token=token)
    c.check("104_Retrieve_Files", status, body)
    status, _, body = s.call("GET", f"/blobs/{blob['id']}.json", token=token)
    c.check("105_Retrieve_File", status, body)
    status, headers, body = s.call("GET", f"/blobs/{blob['uid']}.json", token=token)
    problems = redirect_problems(s, headers, payload)
    c.check("106_Download_File", status, body, extra_problems=problems)
    status, _, body = s.call("PUT", f"/blobs/{blob['id']}.json", [("blob[content_type]", "image/png"), ("blob[name]", "GreatPlace")],
                             token=token)
    c.check("107_Update_File", status, body)
    status, _, body = s.call("DELETE", f"/blobs/{blob['id']}.json", token=token)
    c.check("108_Delete_File", status, body)

    # Custom objects: records as the reference's example has them (a rating; read open, update
    # open for the group "world", delete the owner's), so every key its schema documents is there.
    cls = "MyScoreTable" + suffix
    example_permissions = [("permissions[read][access]", "open"), ("permissions[update][access]", "open_for_groups"),
                           ("permissions[update][groups]", "world"), ("permissions[delete][access]", "owner")]

    def bulk(records):
        # `permissions[read][access]` of record n is `record[n][permissions][read][access]`.
        return [(f"record[{n}][{key.split('[', 1)[0]}]" + key[len(key.split('[', 1)[0]):], value)
                for n, fields in enumerate(records, 1) for key, value in fields + example_permissions]

    status, _, body = s.call("POST", f"/data/{cls}.json", [("rating", "1024"), ("game_mode_name", "deathmatch")] + example_permissions,
                             token=token)
    c.check("101_Create_object", status, body)
    record1 = json.loads(body)
    if record1.get("rating") != 1024 or record1.get("permissions", {}).get("update", {}).get("users_groups") != ["world"]:
        c.fail("101_Create_object", f"rating or permissions not as sent: {body[:300]!r}")
    status, _, body = s.call("POST", f"/data/{cls}/multi.json", bulk([[("rating", "7"), ("game_mode_name", "rage")],
                                                                       [("rating", "9"), ("game_mode_name", "survivor")]]), token=token)
    c.check("107_Create_objects_bulk", status, body)
    record2, record3 = json.loads(body)["items"]
    status, _, body = s.call("GET", f"/data/{cls}.json", [("rating[gt]", "4"), ("game_mode_name[in]", "deathmatch,rage"),
                                                          ("sort_desc", "rating"), ("limit", "100"), ("skip", "0")], token=token)
    c.check("102_Retrieve_objects", status, body)
    if status == 200 and [i["_id"] for i in json.loads(body)["items"]] != [record1["_id"], record2["_id"]]:
        c.fail("102_Retrieve_objects", f"not the two records asked for, by rating: {body[:300]!r}")
    status, _, body = s.call("GET", f"/data/{cls}/{record1['_id']},{record2['_id']}.json", token=token)
    c.check("103_Retrieve_objects_by_IDs", status, body)
    status, _, body = s.call("PUT", f"/data/{cls}/{record1['_id']}.json", [("inc[rating]", "1000"), ("push[levels][]", "1"),
                                                                        ("push[levels][]", "2"), ("add_to_set[tags]", "man,car")],
                             token=token)
    c.check("104_Update_object", status, body)
    if status == 200 and (json.loads(body).get("rating"), json.loads(body).get("levels")) != (2024, [1, 2]):
        c.fail("104_Update_object", f"inc and push not applied: {body[:300]!r}")
    status, _, body = s.call("PUT", f"/data/{cls}/multi.json", [("record[1][_id]", record2["_id"]), ("record[1][rating]", "8"),
                                                                ("record[2][_id]", record3["_id"]), ("record[2][rating]", "10")],
                             token=token)
    c.check("108_Update_objects_bulk", status, body)
    status, _, body = s.call("PUT", f"/data/{cls}/by_criteria.json", [("search_criteria[rating][gt]", "4"), ("game_mode_name", "ctf")],
                             token=token)
    c.check("109_Update_objects_by_criteria", status, body)
    payload = b"custom object file bytes \x00\x01"
    form, form_type = multipart([("field_name", "user_avatar")], "user_new_avatar.jpg", "image/jpeg", payload)
    status, _, body = s.call("POST", f"/data/{cls}/{record1['_id']}/file.json", body=form, token=token,
                             headers={"Content-Type": form_type})
    c.check("111_Upload_file", status, body)
    status, headers, body = s.call("GET", f"/data/{cls}/{record1['_id']}/file.json", [("field_name", "user_avatar")], token=token)
    problems = redirect_problems(s, headers, payload)
    c.check("112_Download_file", status, body, extra_problems=problems)
    status, _, body = s.call("DELETE", f"/data/{cls}/{record1['_id']}/file.json", [("field_name", "user_avatar")], token=token)
    c.check("113_Delete_file", status, body)
    status, _, body = s.call("DELETE", f"/data/{cls}/{record1['_id']}.json", token=token)
    c.check("105_Delete_object", status, body)
    status, _, body = s.call("DELETE", f"/data/{cls}/{record2['_id']},{record3['_id']}.json", token=token)
    c.check("106_Delete_objects_by_IDs", status, body)
    c.json_of(*s.call("POST", f"/data/{cls}/multi.json", bulk([[("rating", "5")], [("rating", "5")]]), token=token)[::2], "records to delete")
    status, _, body = s.call("DELETE", f"/data/{cls}/by_criteria.json", [("rating", "5")], token=token)
    c.check("110_Delete_objects_by_criteria", status, body)
    if status == 200 and json.loads(body).get("total_deleted") != 2:
        c.fail("110_Delete_objects_by_criteria", f"not the two records: {body!r}")

    # Push notifications: ann's device subscribed, an event delivered to it at once (the
    # sandbox's record of deliveries says so) and a dated one changed and deleted.
    status, _, body = s.call("POST", "/subscriptions.json", [("notification_channel", "apns"), ("push_token[environment]", "development"),
                                                             ("push_token[bundle_identifier]", "com.quickblox.supresample"),
                                                             ("push_token[client_identification_sequence]", "aa557232bc237245ba67686"),
                                                             ("device[platform]", "ios"), ("device[udid]", "2343af3433aa3a4fsv")], token=token)
    c.check("101_Create_Subscription", status, body)
    subscription = c.json_of(status, body, "subscription")[0]["subscription"]
    status, _, body = s.call("GET", "/subscriptions.json", token=token)
    c.check("102_Retrieve_Subscriptions", status, body)
    payload = base64.b64encode(json.dumps({"aps": {"alert": "Reference contract", "badge": 1}}).encode()).decode()
    status, _, body = s.call("POST", "/events.json", [("event[notification_type]", "push"), ("event[push_type]", "apns"),
                                                      ("event[environment]", "development"), ("event[event_type]", "one_shot"),
                                                      ("event[message]", "payload=" + payload), ("event[user][ids]", str(ann["id"])),
                                                      ("event[name]", "my event")], token=token)
    problems = []
    if status == 200:
        sent = json.loads(body)["event"]["id"]
        deliveries = json.loads(s.call("GET", "/sandbox/push_deliveries.json", [("event_id", str(sent))],
                                       headers={"QB-Account-Key": s.config["accountKey"]})[2])
        if [d.get("udid") for d in deliveries.get("items", [])] != ["2343af3433aa3a4fsv"]:
            problems.append(f"the event's deliveries are {deliveries!r}, not one to the subscribed device")
    c.check("104_Create_Event", status, body, extra_problems=problems)
    event = c.json_of(status, body, "event")["event"]
    future = int(time.time()) + 86400
    dated = c.json_of(*s.call("POST", "/events.json", [("event[notification_type]", "push"), ("event[environment]", "development"),
                                                       ("event[message]", base64.b64encode(b"Every day").decode()),
                                                       ("event[date]", str(future)), ("event[end_date]", str(future + 7 * 86400)),
                                                       ("event[period]", "86400"), ("event[user][tags][any]", "man,car"),
                                                       ("event[user][tags][exclude]", "ugly")], token=token)[::2], "dated event")["event"]
    status, _, body = s.call("GET", "/events.json", [("page", "1"), ("per_page", "10")], token=token)
    c.check("105_Retrieve_Events", status, body)
    status, _, body = s.call("GET", f"/events/{event['id']}.json", token=token)
    c.check("106_Retrieve_Event", status, body)
    status, _, body = s.call("PUT", f"/events/{dated['id']}.json", [("event[active]", "true"), ("event[message]", base64.b64encode(b"Weekly").decode()),
                                                                    ("event[date]", str(future + 60)), ("event[period]", "604800"),
                                                                    ("event[name]", "my event")], token=token)
    c.check("107_Edit_Event", status, body)
    status, _, body = s.call("DELETE", f"/events/{dated['id']}.json", token=token)
    c.check("108_Delete_Event", status, body)
    status, _, body = s.call("DELETE", f"/subscriptions/{subscription['id']}.json", token=token)
    c.check("103_Remove_Subscription", status, body)

    # Address book: a device's book with a registered user's phone in it and a contact the
    # service rejects (its phone too short), read back and matched.
    status, _, body = s.call("POST", "/users.json", [("user[login]", "gus" + suffix), ("user[password]", password),
                                                     ("user[phone]", "6278336065")], token=app_token)
    gus = c.json_of(status, body, "sign-up of gus")["user"]
    udid = "D337E8A4-80AD-8ABA-9F5D-579EFF6BACAB"
    status, _, body = s.call("POST", "/address_book.json", [("contacts[0][name]", "Frederic Cartwright"), ("contacts[0][phone]", "8879108395"),
                                                            ("contacts[1][name]", "Gus"), ("contacts[1][phone]", gus["phone"]),
                                                            ("contacts[2][name]", "Too short"), ("contacts[2][phone]", "12345"),
                                                            ("force", "1"), ("udid", udid)], token=token)
    c.check("101_Upload_Address_Book_Id", status, body)
    status, _, body = s.call("GET", "/address_book.json", [("udid", udid)], token=token)
    c.check("102_Retrieve_Address_Book_Id", status, body)
    status, _, body = s.call("GET", "/address_book/registered_users.json", [("udid", udid), ("compact", "0")], token=token)
    problems = []
    if status == 200 and [i.get("user", {}).get("id") for i in json.loads(body).get("items", [])] != [gus["id"]]:
        problems.append(f"registered users {body[:300]!r}, not gus alone")
    c.check("103_Retrieve_Already_Registered_Contact", status, body, extra_problems=problems)

    # Deleting dialogs, users and sessions
    status, _, body = s.call("DELETE", f"/chat/Dialog/{second['_id']}.json", [("force", "1")], token=token)
    c.check("104_Delete_Dialog", status, body)
    third = c.json_of(*s.call("POST", "/chat/Dialog.json", [("type", "2"), ("occupants_ids", str(cat["id"])), ("name", "third")],
                               token=token)[::2], "third dialog")
    status, _, body = s.call("DELETE", f"/chat/Dialog/{dialog['_id']},{third['_id']}.json", [("force", "1")], token=token)
    c.check("105_Delete_Dialogs", status, body)

    dan_token = json.loads(s.call("POST", "/session.json", s.signed_session((dan["login"], password)))[2])["session"]["token"]
    status, _, body = s.call("DELETE", f"/users/{dan['id']}.json", token=dan_token)
    c.check("116_Delete_User_By_Id", status, body)
    fay = others["fay"]
    fay_token = json.loads(s.call("POST", "/session.json", s.signed_session((fay["login"], password)))[2])["session"]["token"]
    status, _, body = s.call("DELETE", f"/users/external/{fay['external_user_id']}.json", token=fay_token)
    c.check("117_Delete_User_By_External_User_Id", status, body)
    status, _, body = s.call("DELETE", "/login.json", token=token)
    c.check("103_Sign_Out_Id", status, body)
    status, _, body = s.call("DELETE", "/session.json", token=token)
    c.check("Destroy_Session_Id", status, body)


def main():
    with open(sys.argv[1]) as f:
        config = json.loads(f.readline())
    with open(sys.argv[2]) as f:
        reference = Reference(json.load(f))
    contract = Contract(Sandbox(config), reference)
    failure = None
    try:
        run(contract)
    except Exception as error:  # the run stops; what it checked so far is still reported
        failure = f"{type(error).__name__}: {error}"
    for operation_id, op in reference.operations.items():
        result = contract.results.get(operation_id) or {
            "operation": operation_id, "method": op["method"], "path": op["path"], "status": None, "ok": False,
            "problems": ["not exercised" + (f" (the run stopped: {failure})" if failure else "")]}
        print(json.dumps(result))
    ok = failure is None and all(r["ok"] for r in contract.results.values()) and len(contract.results) == len(reference.operations)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
