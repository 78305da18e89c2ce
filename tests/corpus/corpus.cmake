# Corpus drivers (each prints 'N passed, N failed').
