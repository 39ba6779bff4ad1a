"""Texas 42: bidding, trumps, tricks and marks, with the common variants."""
