# SCID 5.0.2, headless: import a PGN file into a new database.
# scid import.tcl TYPE OUT PGN   (TYPE: SCID4 or SCID5; OUT: the database without extension)
lassign $argv type out pgn
set base [sc_base create $type $out]
sc_base import $base $pgn
sc_base close $base
