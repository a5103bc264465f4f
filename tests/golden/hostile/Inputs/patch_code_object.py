#!/usr/bin/env python3
"""Writes a corrupted copy of an AMDGPU code object (ELF64) for the hostile-input tests.

    patch_code_object.py MODE IN OUT
    metadata-empty-map  the metadata note's msgpack map becomes an empty map (the rest trails)
    metadata-bad-byte   the metadata note starts with 0xc1, a byte msgpack never uses
    metadata-no-wave    the key .wavefront_size is renamed, so the kernel has none
    metadata-no-target  the key amdhsa.target is renamed, so the metadata names no target
    metadata-map-key    the first key of the metadata map becomes an empty map (LLVM's reader
                        stops at llvm_unreachable on such a key)
    huge-function       the kernel's function symbol claims 1 TiB
"""
import struct
import sys


def sections(data):
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    entsize, count, names = struct.unpack_from("<HHH", data, 0x3A)
    table = shoff + names * entsize
    strings = struct.unpack_from("<Q", data, table + 0x18)[0]
    out = {}
    for i in range(count):  # by name; each also knows its index
        at = shoff + i * entsize
        name_at = strings + struct.unpack_from("<I", data, at)[0]
        name = data[name_at:data.index(0, name_at)].decode()
        sh_type, flags, addr, offset, size, link, info, align, entsize_ = struct.unpack_from("<IQQQQIIQQ", data, at + 4)
        out[name] = {"index": i, "offset": offset, "size": size, "link": link}
    return out


def metadata_desc(data):
    """Offset and size of the NT_AMDGPU_METADATA (32) note's descriptor named AMDGPU."""
    note = sections(data)[".note"]
    at, end = note["offset"], note["offset"] + note["size"]
    while at < end:
        namesz, descsz, kind = struct.unpack_from("<III", data, at)
        name = data[at + 12:at + 12 + namesz].rstrip(b"\0")
        desc = at + 12 + (namesz + 3) // 4 * 4
        if name == b"AMDGPU" and kind == 32:
            return desc, descsz
        at = desc + (descsz + 3) // 4 * 4
    raise SystemExit("no AMDGPU metadata note")


def main():
    mode, source, target = sys.argv[1:4]
    data = bytearray(open(source, "rb").read())
    if mode.startswith("metadata-"):
        desc, size = metadata_desc(data)
        if mode == "metadata-empty-map":
            data[desc] = 0x80
        elif mode == "metadata-bad-byte":
            data[desc] = 0xC1
        elif mode == "metadata-no-wave":
            blob = bytes(data[desc:desc + size])
            at = blob.index(b".wavefront_size")
            data[desc + at:desc + at + 15] = b".wavefront_sizX"
        elif mode == "metadata-no-target":
            blob = bytes(data[desc:desc + size])
            at = blob.index(b"amdhsa.target")
            data[desc + at:desc + at + 13] = b"amdhsa.targeX"
        elif mode == "metadata-map-key":
            if not 0x80 <= data[desc] <= 0x8F or not 0xA0 <= data[desc + 1] <= 0xBF:
                raise SystemExit("the note does not start with a small map and a short string key")
            data[desc + 1] = 0x80
    elif mode == "huge-function":
        symtab = sections(data)[".symtab"]
        done = False
        for at in range(symtab["offset"], symtab["offset"] + symtab["size"], 24):  # Elf64_Sym: st_info at 4, st_size at 16
            if data[at + 4] & 0xF == 2:  # STT_FUNC
                struct.pack_into("<Q", data, at + 16, 1 << 40)
                done = True
        if not done:
            raise SystemExit("no function symbol")
    else:
        raise SystemExit("unknown mode " + mode)
    open(target, "wb").write(data)


if __name__ == "__main__":
    main()
