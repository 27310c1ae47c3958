# SCID 5.0.2, headless: export every game of a database as PGN, SCID's default layout.
# scid export.tcl TYPE DB OUT
lassign $argv type db out
set base [sc_base open $type $db]
sc_base switch $base
sc_base export filter PGN $out -comments 1 -variations 1
sc_base close $base
