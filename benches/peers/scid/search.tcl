# SCID 5.0.2, headless: its own board search (exact, main lines, no flip) for the position after
# MOVES, timed REPEAT times; prints the games found, each search's milliseconds, and with LIST the
# game numbers (from 1) of the games found, one a line.
# scid search.tcl TYPE DB "e4 c5 Nf3" REPEAT [LIST]
lassign $argv type db moves repeat list
set base [sc_base open $type $db]
sc_base switch $base
sc_game new
foreach m $moves { sc_move addSan $m }
set times {}
for {set i 0} {$i < $repeat} {incr i} {
    set t0 [clock microseconds]
    sc_search board RESET Exact false 0
    lappend times [format %.1f [expr {([clock microseconds] - $t0) / 1000.0}]]
}
set found [sc_filter count]
puts "$found games; ms: $times"
if {$list ne ""} {
    set out [open $list w]
    foreach {idx line deleted} [sc_base gameslist $base 0 $found dbfilter N+] {
        puts $out [lindex [split $idx _] 0]
    }
    close $out
}
sc_base close $base
