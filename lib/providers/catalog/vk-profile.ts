/** The VK user record (Provider profile A of the spec): every field its table lists. */
type Flag = 0 | 1

export interface VkCityOrCountry {
  id: number
  title: string
}

export interface VkPhotoSize {
  height: number
  width: number
  url: string
  type: string
}

export interface VkCropPhoto {
  crop: { x: number; x2: number; y: number; y2: number }
  rect: { x: number; x2: number; y: number; y2: number }
  photo: {
    id: number
    album_id: number
    owner_id: number
    date: number
    has_tags: boolean
    access_key?: string
    can_comment?: number
    height?: number
    width?: number
    lat?: number
    long?: number
    photo_256?: string
    place?: string
    post_id?: number
    text?: string
    user_id?: number
    images?: VkPhotoSize[]
    sizes?: Array<VkPhotoSize & { src: string }>
  }
}

/** A VK user record (users.get), as the spec's "Provider profile A" lists it. */
export interface VkProfile extends Record<string, unknown> {
  id: number
  first_name: string
  last_name: string
  is_closed: boolean
  can_access_closed: boolean
  photo_100: string

  about?: string
  activities?: string
  bdate?: string
  books?: string
  deactivated?: string
  domain?: string
  email?: string
  games?: string
  home_town?: string
  interests?: string
  maiden_name?: string
  movies?: string
  music?: string
  nickname?: string
  photo_200?: string
  photo_200_orig?: string
  photo_400?: string
  photo_400_orig?: string
  photo_50?: string
  photo_id?: string
  photo_max?: string
  photo_max_orig?: string
  quotes?: string
  screen_name?: string
  site?: string
  status?: string
  tv?: string
  first_name_abl?: string
  first_name_acc?: string
  first_name_dat?: string
  first_name_gen?: string
  first_name_ins?: string
  first_name_nom?: string
  last_name_abl?: string
  last_name_acc?: string
  last_name_dat?: string
  last_name_gen?: string
  last_name_ins?: string
  last_name_nom?: string

  blacklisted?: Flag
  blacklisted_by_me?: Flag
  can_post?: Flag
  can_see_all_posts?: Flag
  can_see_audio?: Flag
  can_send_friend_request?: Flag
  can_write_private_message?: Flag
  has_mobile?: Flag
  has_photo?: Flag
  is_favorite?: Flag
  is_friend?: Flag
  is_hidden_from_feed?: Flag
  is_no_index?: Flag
  online?: Flag
  online_mobile?: Flag
  trending?: Flag
  verified?: Flag

  common_count?: number
  followers_count?: number
  online_app?: number
  timezone?: number
  friend_status?: 0 | 1 | 2 | 3
  sex?: 0 | 1 | 2
  relation?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8
  wall_default?: "all" | "owner"
  city?: VkCityOrCountry
  country?: VkCityOrCountry
  career?: {
    city_id: number
    city_name: string
    company: string
    country_id: number
    from: number
    group_id: number
    position: string
    until: number
  }
  connections?: { facebook: string; instagram: string; livejournal: string; skype: string; twitter: string }
  contacts?: { home_phone: string; mobile_phone: string }
  counters?: {
    albums: number
    audios: number
    followers: number
    friends: number
    groups: number
    mutual_friends: number
    notes: number
    online_friends: number
    pages: number
    photos: number
    user_videos: number
    videos: number
  }
  crop_photo?: VkCropPhoto
  education?: { faculty: number; faculty_name: string; graduation: number; university: number; university_name: string }
  exports?: { facebook: number; instagram: number; livejournal: number; twitter: number }
  last_seen?: { platform: 1 | 2 | 3 | 4 | 5 | 6 | 7; time: number }
  military?: { country_id: number; from: number; unit: string; unit_id: number; until: number }
  occupation?: { id: number; name: string; type: "work" | "school" | "university" }
  personal?: {
    alcohol: 1 | 2 | 3 | 4 | 5
    inspired_by: string
    langs: string[]
    life_main: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8
    people_main: 1 | 2 | 3 | 4 | 5 | 6
    political: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
    religion: string
    smoking: 1 | 2 | 3 | 4 | 5
  }
  relation_partner?: {
    id: number
    first_name: string
    last_name: string
    can_access_closed: boolean
    deactivated: string
    hidden: number
    is_closed: boolean
  }
  relatives?: Array<{ id: number; name: string; type: "parent" | "child" | "grandparent" | "grandchild" | "sibling" }>
  schools?: Array<{
    city: number
    class: string
    country: number
    id: string
    name: string
    speciality: string
    type: number
    type_str: string
    year_from: number
    year_graduated: number
    year_to: number
  }>
  status_audio?: {
    artist: string
    duration: number
    id: number
    owner_id: number
    title: string
    access_key: string
    album_id: number
    date: number
    genre_id: number
    performer: string
    url: string
  }
  universities?: Array<{
    chair: number
    chair_name: string
    city: number
    country: number
    education_form: string
    education_status: string
    faculty: number
    faculty_name: string
    graduation: number
    id: number
    name: string
    university_group_id: number
  }>
}

