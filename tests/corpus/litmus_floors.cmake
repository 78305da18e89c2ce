# Measured pass counts of the litmus-ptx corpus drivers (raise when a fix lands; never lower silently).
set(LITMUS_FLOOR_PTX 0)
set(LITMUS_FLOOR_REF75 0)
set(LITMUS_FLOOR_REF60 0)
