"""Long runs that survive a kill and scale out: journals of finished work, run directories that
refuse a changed configuration, atomic final files, serial and Ray backends, progress bars."""
