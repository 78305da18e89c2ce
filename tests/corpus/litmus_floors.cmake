# Measured pass counts of the litmus-ptx corpus drivers (raise when a fix lands; never lower silently).
# Measured 2026-11-23 with the symbolic engine: ptx.cat 188/188 (expected_ptx_v7_5), ptx-v7.5.cat 188/188,
# ptx-v6.0.cat 98/98 (expected_ptx_v6_0); 0 failed, 0 unknown in each.
set(LITMUS_FLOOR_PTX 188)
set(LITMUS_FLOOR_REF75 188)
set(LITMUS_FLOOR_REF60 98)
