# An oracle for `tabiya select`, independent of tabiya and of any chess library: games split
# on `[Event `, tags and main-line SAN read with regular expressions (comments, variations,
# NAGs, move numbers and results removed). Prints the counts crates/tabiya-cli/tests/select.rs
# pins for the corpus's medium file.
#
#   python3 benches/peers/select/oracle.py $TABIYA_CORPUS/pgn/medium-pgnmentor-12players.pgn
import re
import sys
from collections import defaultdict


def games(path):
    data = open(path, 'rb').read().decode('utf-8', 'replace')
    for part in re.split(r'\n(?=\[Event )', data):
        tags = {}
        for m in re.finditer(r'^\[(\w+)\s+"(.*)"\]\s*$', part, re.M):
            tags.setdefault(m.group(1), m.group(2))
        body = re.sub(r'^\[.*\]\s*$', '', part, flags=re.M)
        body = re.sub(r'\{[^}]*\}', '', body)
        body = re.sub(r';[^\n]*', '', body)
        while True:
            flat = re.sub(r'\([^()]*\)', '', body)
            if flat == body:
                break
            body = flat
        moves = []
        for token in body.split():
            token = re.sub(r'^\d+\.+', '', token)
            if not token or token.startswith('$') or token in ('1-0', '0-1', '1/2-1/2', '*'):
                continue
            token = token.rstrip('+#!?')
            if token:
                moves.append(token)
        yield tags, tuple(moves)


def rating(tags, name):
    value = tags.get(name, '')
    return int(value) if value.isdigit() else None


def carlsen(tags):
    return any(tags.get(c, '').lower().startswith('carlsen') for c in ('White', 'Black'))


all_games = list(games(sys.argv[1]))
print('games', len(all_games))
print('e4 c5 Nf3', sum(1 for t, m in all_games if m[:3] == ('e4', 'c5', 'Nf3')))
print('plies 40..60', sum(1 for t, m in all_games if 40 <= len(m) <= 60))
print('eco B20..B99', sum(1 for t, m in all_games if len(t.get('ECO', '')) >= 3 and 'B20' <= t['ECO'][:3] <= 'B99'))
print('Carlsen, WhiteElo not 2800..', sum(
    1 for t, m in all_games if carlsen(t) and not (rating(t, 'WhiteElo') or 0) >= 2800))
seen = set()
duplicates = 0
for t, m in all_games:
    key = (m, t.get('White'), t.get('Black'), t.get('Result'), t.get('Date'))
    duplicates += key in seen
    seen.add(key)
print('dedup removes', duplicates)
by_players = defaultdict(list)
for n, (t, m) in enumerate(all_games, 1):
    by_players[(t.get('White'), t.get('Black'))].append((m, n))
contained = set()
for lines in by_players.values():
    lines.sort()
    for (a, i), (b, j) in zip(lines, lines[1:]):
        if b[:len(a)] == a:
            contained.add(i if len(a) < len(b) else j)
print('contained removes', len(contained))
# With a file of the game numbers SCID 5.0.2 deleted as twins (`twins.tcl`, its first line
# removed) and the numbers tabiya names (`select --twins` on stderr): the sets of twins (SCID's
# keys, same moves) from which the two remove a different number of games.
if len(sys.argv) > 3:
    scid = {int(n) for n in open(sys.argv[2])}
    ours = {int(n) for n in open(sys.argv[3])}

    def twin_key(n):
        t, m = all_games[n - 1]
        d = t.get('Date', '')
        return (t.get('White', '')[:4].lower(), t.get('Black', '')[:4].lower(), t.get('Event'), t.get('Site'),
                t.get('Round'), d[:4], d[5:7], m)
    sets = defaultdict(set)
    for n in scid | ours:
        sets[twin_key(n)].add(n)
    print('twin sets removed differently', sum(1 for s in sets.values() if len(s & scid) != len(s & ours)))
