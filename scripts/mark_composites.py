"""Mark `cute-wrong:` the rows of test vector files whose CuTe answer is not the
true result of a composition-based operation, as judged by the independent checker
`shared/oracle/cute_truth.py` (CUTE_ORACLE, or ../shared/oracle beside the repository).

    scripts/mark_composites.py crates/kute/tests/data/extra_2002.tsv ...
"""
import sys
import os
sys.path.insert(0, os.environ.get('CUTE_ORACLE', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'oracle')))
import cute_truth as ct
for path in sys.argv[1:]:
    out=[]; n=0
    for line in open(path):
        line=line.rstrip('\n')
        if not line or line.startswith('#') or '\t' not in line:
            out.append(line); continue
        e,a=line.split('\t',1)
        if a=='error' or a.startswith('cute-wrong:'):
            out.append(line); continue
        try:
            r=ct.classify(e,a)
        except Exception as ex:
            out.append(line); continue
        if r['wrong']:
            n+=1
            print(path.split('/')[-1], e, '|', r['why'][:200], file=sys.stderr)
            out.append(e+'\tcute-wrong:'+a)
        else:
            out.append(line)
    open(path,'w').write('\n'.join(out)+'\n')
    print(path, 'newly marked', n)
