"""Everything that gives observations meaning: rules, referee, match record, cube link, web page."""
