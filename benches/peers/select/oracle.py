# Independent oracle for tabiya select --dedup / --contained: games parsed with regular
# expressions (tags; main-line SAN with comments, variations, NAGs, numbers removed).
import sys,re
def games(path):
    data=open(path,'rb').read().decode('utf-8','replace')
    # split on tag sections
    parts=re.split(r'\n(?=\[Event )', data)
    for p in parts:
        tags=dict()
        for m in re.finditer(r'^\[(\w+)\s+"(.*)"\]\s*$', p, re.M):
            tags.setdefault(m.group(1), m.group(2))
        body=re.sub(r'^\[.*\]\s*$','',p,flags=re.M)
        body=re.sub(r'\{[^}]*\}','',body)
        body=re.sub(r';[^\n]*','',body)
        while True:
            b2=re.sub(r'\([^()]*\)','',body)
            if b2==body: break
            body=b2
        toks=[]
        for t in body.split():
            t=re.sub(r'^\d+\.+','',t)
            if not t or t.startswith('$') or t in ('1-0','0-1','1/2-1/2','*'): continue
            t=t.rstrip('+#!?')
            if t: toks.append(t)
        yield tags, tuple(toks)
gs=list(games(sys.argv[1]))
print('games',len(gs))
seen=set(); dd=0
for t,m in gs:
    k=(m,t.get('White'),t.get('Black'),t.get('Result'),t.get('Date'))
    if k in seen: dd+=1
    else: seen.add(k)
print('dedup removed',dd)
from collections import defaultdict
g=defaultdict(list)
for i,(t,m) in enumerate(gs): g[(t.get('White'),t.get('Black'))].append((m,i))
cont=0
for k,v in g.items():
    v.sort()
    for j in range(len(v)-1):
        a,b=v[j][0],v[j+1][0]
        if b[:len(a)]==a: cont+=1
print('contained removed',cont)
