"""The serial link to the cube display unit: protocol values (`protocol`), the
pyserial client (`client`), a software emulator (`emulator`) and the real
firmware in simavr (`simunit`). See firmware/PROTOCOL.md."""
