#!/usr/bin/env python3
"""Builds the T-BASE fixtures of this directory from ../../../../../shared/specs/tbase.md
(section 10: the seed's example record; section 14: the fixtures). Independent of the Rust code,
so the tests compare tabiya's reader and writer against bytes made from the document alone.

Run from this directory: python3 make_fixtures.py
"""

HEX = """
303031323130303030342020202020202020202f2020202020202020202f2020
202020202020202f2020202020202020202f2020202020202020202f2020207a
44202020202f2044202020532020202f20514a2058202020202f202020206a20
2020202f0d0a303030338f8991e38f408c6a20202020303030308fdb8b59946e
964081698cb3986194c5816a20203130323030303320208cb398618251383230
31372031323131323332313030328c633d20202094e93d33202097cd3d353420
2020202020202020202030202020202020202020202020202020202020203933
3037303231353136202020333230373333343832203434342032313420313030
32353932203434343134363520363038202020350d0a31313232303030303230
3832353932323539322a20202020202020202031323034202020202020202020
20202020202020200d0a
"""


def sjis(text):
    return text.encode("cp932")


def write(name, data):
    with open(name, "wb") as f:
        f.write(data)


example = bytes.fromhex("".join(HEX.split()))
assert len(example) == 330
write("example_3line.dia", example)
four = bytearray(example)
four[226:228] = b"\r\n"
write("example_4line.dia", bytes(four))

# The 17-move solution of section 10, in T-BASE notation, wrapped at 80 bytes like the seed.
write("example.tjn", sjis("0003 73銀同金94桂同馬71銀92玉82金93玉94歩同角84角同金92金同玉62龍93玉82龍/\r\n0003 まで17手詰\r\n"))
# The seed's .rem example (section 9).
write("example.rem", sjis("#0001\r\n作品番号1番の注釈。\r\n$6ここから黄色になる。$7行の途中で色を変更することも可能。\r\n#0002\r\n作品番号2番の注釈。\r\n#\r\n"))

# Section 14.3: the board on which the seed's #0003 line plays through:
# 7gl/8k/9/5+R3/4B4/9/9/9/9 b GPrb2g4s4n3l17p 1 (king 1二, lance 1一, gold 2一; attacker 龍 4四,
# 角 5五; attacker hand 金 歩).
cells = {(1, 1): "H", (2, 1): "D", (1, 2): "Q", (4, 4): "z", (5, 5): "s"}
board = "".join("".join(cells.get((f, r), " ") for r in range(1, 10)) + "/" for f in range(1, 10))
line1 = "00100001" + "02" + board
# used (board + hand): 玉1 飛1 角1 金2 銀0 桂0 香1 歩01 = 7; on the board: 玉1 飛1 角1 金1 香1 = 5
line2 = ("0003" + "テスト".ljust(12 - 3) + "    " + "".ljust(20) + "   " + "      " + "      " + "12" + "015"
         + " " + "07" + "111200101" + "".ljust(18) + "".ljust(10) + "1" + " " + "  " + "".ljust(16) + "12" + "  ")
line2 = sjis("0003") + sjis("テスト") + b" " * 6 + line2[13:].encode()
assert len(line2) == 124, len(line2)
last = b"111100100" + b"05" + b" " * 39
seed0003 = sjis(line1) + b"\r\n" + line2 + b"\r\n" + b" " * 48 + b"\r\n" + last + b"\r\n"
assert len(seed0003) == 330
write("seed0003.dia", seed0003)
write("seed0003.tjn", sjis("0003 14龍13金合22金同金13龍同玉24金12玉22角成同玉33金打21玉22歩12玉23金寄/\r\n0003 まで15手詰\r\n"))

# Broken copies of the example (section 14.2).
def broken(name, offset, data):
    b = bytearray(example)
    b[offset:offset + len(data)] = data
    write(name, bytes(b))

broken("broken_checksum.dia", 8, b"05")          # 持駒数 05, the hand sums to 4
broken("broken_slash.dia", 29, b" ")             # '/' after file 2 missing ...
b = bytearray(example); b[29], b[28] = ord(" "), ord("/"); write("broken_slash.dia", bytes(b))  # ... moved one cell up
broken("broken_letter.dia", 45, b"K")            # 'K' is not a T-BASE letter (6四: was 'z')
# 作者名 (bytes 106-117) ending in the lead byte of a double-byte character: 初代宗桂 + 3 spaces
# + 0x8E (first byte of 詰's neighbour 実), the trail byte landing in 作者コード.
broken("broken_split.dia", 106, sjis("初代宗桂") + b"   " + b"\x8e" + b"\x9f" + b"000")
write("broken_short.dia", example + example[:329])
broken("broken_crlf.dia", 276, b" \n")
