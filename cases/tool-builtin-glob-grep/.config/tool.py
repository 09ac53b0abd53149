# TODO hidden
