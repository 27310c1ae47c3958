# SCID 5.0.2, headless: open a database and count its games.
# scid open.tcl TYPE DB
lassign $argv type db
set base [sc_base open $type $db]
puts [sc_base numGames $base]
sc_base close $base
