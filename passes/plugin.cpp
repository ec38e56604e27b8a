// placeholder plugin
