// ZootasticApp
