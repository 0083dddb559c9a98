"""The tournament hall: every table live on one director's screen, over an MQTT broker.

- `wire`: topics (`bgcompanion/table/<id>/event|state|online`), payloads, the checks a
  message must pass (pure; no broker client);
- `publish`: a table's publisher thread: its match file's events in order from the
  broker's acknowledged mark, and its state (retained);
- `hall`: the subscriber and every table's state, events kept once and in order,
  alerts, results, dropped messages counted;
- `web`: the director's page (live, PIN for acknowledging alerts);
- `broker`: a Mosquitto configuration with a login and an ACL per table, and running it.
"""
