# Measured pass counts of the litmus-ptx corpus drivers (raise when a fix lands; never lower silently).
# Measured 2026-11-23 with the symbolic engine: ptx.cat 188/188 (expected_ptx_v7_5), ptx-v7.5.cat 188/188,
# ptx-v6.0.cat 98/98 (expected_ptx_v6_0); 0 failed, 0 unknown in each.
set(LITMUS_FLOOR_PTX 188)
set(LITMUS_FLOOR_REF75 188)
set(LITMUS_FLOOR_REF60 98)
# Liveness (docs/litmus-liveness.md), measured 2026-11-29 against the liveness columns (87 files each): 84 agree,
# 3 differ as documented (tests/corpus/liveness_deviations.tsv, memmodel/models/NOTES.md), 0 disagree, 0 unknown,
# under ptx.cat, ptx-v7.5.cat and ptx-v6.0.cat alike.
set(LITMUS_FLOOR_LIVE_PTX 84)
set(LITMUS_FLOOR_LIVE_REF75 84)
set(LITMUS_FLOOR_LIVE_REF60 84)
