"""Class mode's views: the landing page, the lecturer's view of a room and a student's."""
