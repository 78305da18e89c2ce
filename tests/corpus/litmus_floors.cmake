# Measured pass counts of the litmus-ptx corpus drivers (raise when a fix lands; never lower silently).
# Measured 2026-11-29 with the symbolic engine: ptx.cat 185 of 188 (expected_ptx_v7_5), ptx-v7.5.cat 185 of 188,
# ptx-v6.0.cat 95 of 98 (expected_ptx_v6_0); 0 failed, 0 unknown in each. The other 3 (Barrier/quorum{1,3,4}-pass)
# differ as documented in tests/corpus/litmus_deviations.tsv: since barrier phases follow ISA 9.7.13.1 (3 threads
# at a barrier of count 2: the third waits forever, no execution terminates), no execution witnesses their
# condition (memmodel/models/NOTES.md); the driver fails on any other disagreement. Before: 188/188/98.
set(LITMUS_FLOOR_PTX 185)
set(LITMUS_FLOOR_REF75 185)
set(LITMUS_FLOOR_REF60 95)
# Liveness (docs/litmus-liveness.md), measured 2026-11-29 against the liveness columns (87 files each): 84 agree,
# 3 differ as documented (tests/corpus/liveness_deviations.tsv, memmodel/models/NOTES.md), 0 disagree, 0 unknown,
# under ptx.cat, ptx-v7.5.cat and ptx-v6.0.cat alike.
set(LITMUS_FLOOR_LIVE_PTX 84)
set(LITMUS_FLOOR_LIVE_REF75 84)
set(LITMUS_FLOOR_LIVE_REF60 84)
