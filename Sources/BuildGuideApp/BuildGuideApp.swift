// BuildGuideApp
