"""Statistics: ``estimates`` (every rate or mean with its 95% interval), ``differences`` (paired and
independent differences, multiple-comparison control, ratings), ``moments`` and ``aggregate``
(streaming sums that give the same intervals without holding the tables)."""
